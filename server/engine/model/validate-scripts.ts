/**
 * Syntax of the scripts a model carries (only with `ctx.checkSyntax`): `if` conditions, branch
 * `run`, `{{ }}` templates in inputs, outputs and params, and the code of `acts.transform.code`.
 */
import { joinPath } from './paths.ts';
import { problem } from './problem.ts';
import { forEachTemplate } from './templates.ts';
import type { ModelProblem, Vars, Workflow } from './types.ts';
import type { ValidateContext } from './validate-context.ts';
import { walkWorkflow } from './walk.ts';

const CODE_PACKAGE = 'acts.transform.code';

export function scriptProblems(workflow: Workflow, ctx: ValidateContext): ModelProblem[] {
  const check = ctx.checkSyntax;
  if (!check) return [];
  const problems: ModelProblem[] = [];

  const script = (source: string | undefined, path: string, what: string) => {
    if (source === undefined) return;
    const error = check(source, 'script');
    if (error) problems.push(problem('model.bad_expression', path, `invalid ${what} \`${source}\`: ${error}`));
  };
  const templates = (value: unknown, path: string) =>
    forEachTemplate(value, path, (expression, at) => {
      const error = check(expression, 'script');
      if (error) problems.push(problem('model.bad_expression', at, `invalid template {{${expression}}}: ${error}`));
    });
  const data = (node: { inputs: Vars; outputs: Vars }, path: string) => {
    templates(node.inputs, joinPath(path, 'inputs'));
    templates(node.outputs, joinPath(path, 'outputs'));
  };

  data(workflow, '');
  walkWorkflow(workflow, {
    step(step, path) {
      script(step.if, joinPath(path, 'if'), 'condition');
      data(step, path);
    },
    branch(branch, path) {
      script(branch.if, joinPath(path, 'if'), 'condition');
      script(branch.run, joinPath(path, 'run'), '`run` script');
      data(branch, path);
    },
    act(act, path) {
      script(act.if, joinPath(path, 'if'), 'condition');
      data(act, path);
      const paramsPath = joinPath(path, 'params');
      if (act.uses === CODE_PACKAGE && typeof act.params === 'string') {
        const error = check(act.params, 'function');
        if (error) problems.push(problem('model.bad_expression', paramsPath, `invalid ${CODE_PACKAGE} code: ${error}`));
      } else {
        templates(act.params, paramsPath);
      }
    },
  });
  return problems;
}
