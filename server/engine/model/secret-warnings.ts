/**
 * Warnings (the model deploys all the same) about `{{ secrets.NAME }}` in act params naming a
 * secret that is not stored: the act would fail with `secret.unknown` unless an admin adds it
 * before it runs.
 */
import { secretNames } from '../expr/secret-templates.ts';
import { joinPath } from './paths.ts';
import { problem } from './problem.ts';
import type { ModelProblem, Workflow } from './types.ts';
import { walkWorkflow } from './walk.ts';

export function secretWarnings(workflow: Workflow, known: (name: string) => boolean): ModelProblem[] {
  const out: ModelProblem[] = [];
  walkWorkflow(workflow, {
    act(act, path) {
      for (const name of new Set(secretNames(act.params))) {
        if (known(name)) continue;
        const message = `the secret '${name}' is not stored: the act fails with secret.unknown unless an admin adds it first (the studio's Secrets page, or acts secrets set ${name})`;
        out.push(problem('model.unknown_secret', joinPath(path, 'params'), message));
      }
    },
  });
  return out;
}
