/**
 * Warnings (not errors: the model deploys) about `next` loops with nothing in them that waits — no
 * irq act and no subflow — which run as fast as the engine can create tasks until an `if` ends
 * them or the process's step budget stops it (issue 10, item 4).
 */
import { joinPath } from './paths.ts';
import { problem } from './problem.ts';
import type { Act, ModelProblem, Step, Workflow } from './types.ts';

const WAITING_PACKAGES = ['acts.core.irq', 'acts.core.subflow'];

function actWaits(act: Act): boolean {
  if (WAITING_PACKAGES.includes(act.uses)) return true;
  // acts of a block or fan-out body are params (data), not nodes
  const params = JSON.stringify(act.params ?? null);
  if (WAITING_PACKAGES.some((uses) => params.includes(`"${uses}"`))) return true;
  return act.setup.some(actWaits);
}

function stepWaits(step: Step): boolean {
  return step.acts.some(actWaits) || step.setup.some(actWaits) || step.branches.some((b) => b.steps.some(stepWaits));
}

/** Loops of one list of steps: from each `next` that jumps back, the steps it runs through. */
function listWarnings(steps: Step[], path: string, out: ModelProblem[]): void {
  const index = new Map(steps.map((s, i) => [s.id, i]));
  const successor = (i: number): number | undefined => (steps[i].next !== undefined ? index.get(steps[i].next!) : i + 1 < steps.length ? i + 1 : undefined);
  steps.forEach((step, i) => {
    const target = step.next === undefined ? undefined : index.get(step.next);
    if (target === undefined || target > i) return;
    const loop: number[] = [];
    for (let at: number | undefined = target; at !== undefined && !loop.includes(at); at = at === i ? undefined : successor(at)) loop.push(at);
    if (loop[loop.length - 1] !== i || loop.some((at) => stepWaits(steps[at]))) return;
    const names = [...loop, target].map((at) => `'${steps[at].id}'`).join(' → ');
    const message = `the loop ${names} has no act that waits (an irq or a subflow): unless an \`if\` ends it, it runs until the process's step budget stops it`;
    out.push(problem('model.loop_without_wait', joinPath(joinPath(joinPath(path, 'steps'), i), 'next'), message));
  });
  steps.forEach((step, i) => step.branches.forEach((b, j) => listWarnings(b.steps, joinPath(joinPath(joinPath(joinPath(path, 'steps'), i), 'branches'), j), out)));
}

export function loopWarnings(workflow: Workflow): ModelProblem[] {
  const out: ModelProblem[] = [];
  listWarnings(workflow.steps, '', out);
  return out;
}
