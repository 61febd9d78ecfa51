/**
 * Deploy-time validation (spec 1.7 and section 0). Every rule runs and every problem is returned,
 * each with a stable code, a message that says what to change, its path, and its position when the
 * caller can locate paths in the source.
 */
import type { Locate } from './locate.ts';
import type { ModelProblem, Workflow } from './types.ts';
import type { ValidateContext } from './validate-context.ts';
import { actProblems, needsProblems, nextProblems, timeoutProblems } from './validate-flow.ts';
import { idProblems } from './validate-ids.ts';
import { schemaProblems } from './validate-schemas.ts';
import { scriptProblems } from './validate-scripts.ts';
import { triggerProblems } from './validate-triggers.ts';

/** Problems with a position first, in document order; the others after, in rule order. */
function documentOrder(a: ModelProblem, b: ModelProblem): number {
  if (!a.position || !b.position) return (a.position ? 0 : 1) - (b.position ? 0 : 1);
  return a.position.line - b.position.line || a.position.col - b.position.col;
}

export function validateWorkflow(workflow: Workflow, ctx: ValidateContext = {}, locate?: Locate): ModelProblem[] {
  const problems = [
    ...idProblems(workflow, locate),
    ...triggerProblems(workflow),
    ...nextProblems(workflow),
    ...needsProblems(workflow),
    ...timeoutProblems(workflow),
    ...actProblems(workflow, ctx),
    ...scriptProblems(workflow, ctx),
    ...schemaProblems(workflow),
  ];
  if (!locate) return problems;
  for (const p of problems) {
    const position = locate(p.path);
    if (position) p.position = position;
  }
  return problems.sort(documentOrder);
}
