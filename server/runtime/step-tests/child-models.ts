/**
 * The models a step test's subflow acts call: a subflow act whose `to` is plain text names a model
 * that must be deployed on the test engine too. `deployChildren` asks `resolve` for each such model
 * (the server: its latest deployed version; `acts test`: the `--model` files), deploys it, and
 * follows its own subflow acts — at most MAX_CHILD_MODELS models. A model `resolve` does not know
 * is left out: the act then fails with `model.not_found` in the test.
 */
import { parseModel, walkWorkflow } from '../../engine/model/index.ts';
import type { Engine } from '../engine.ts';

/** The source of a model by id, or undefined when there is none. */
export type ModelSource = (mid: string) => Promise<string | undefined>;

const MAX_CHILD_MODELS = 10;
export const SUBFLOW = 'acts.core.subflow';

/** The model ids the subflow acts of `source` name as plain text. */
export function subflowTargets(source: string): string[] {
  const { workflow } = parseModel(source);
  if (!workflow) return [];
  const targets = new Set<string>();
  walkWorkflow(workflow, {
    act(act) {
      const to = act.uses === SUBFLOW && act.params && typeof act.params === 'object' ? (act.params as { to?: unknown }).to : undefined;
      if (typeof to === 'string' && to !== '' && !to.includes('{{')) targets.add(to);
    },
  });
  return [...targets];
}

/** Deploys on `engine` the models `source` calls, and the ones they call, as `resolve` gives them. */
export async function deployChildren(engine: Engine, source: string, resolve: ModelSource): Promise<void> {
  const seen = new Set<string>();
  const queue = subflowTargets(source);
  while (queue.length > 0 && seen.size < MAX_CHILD_MODELS) {
    const mid = queue.shift()!;
    if (seen.has(mid)) continue;
    seen.add(mid);
    const child = await resolve(mid);
    if (child === undefined) continue;
    await engine.models.deploy(child);
    queue.push(...subflowTargets(child));
  }
}
