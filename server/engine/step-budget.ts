/**
 * The step budget of a process (issue 10, item 4): the most tasks one process may create. A `next`
 * loop with nothing in it that waits would otherwise create tasks without end (tens of thousands
 * of rows a second); past the budget the process ends in error with a message that names the
 * steps that ran most, so the loop is easy to find. A catch cannot take it: it would loop again.
 */
import { ActError } from './errors.ts';
import type { Process } from './process.ts';

export const DEFAULT_STEP_BUDGET = 100_000;

/** The steps of the process that ran most, as `'a' 5000 times`. */
function busiestSteps(proc: Process, count: number): string[] {
  const runs = new Map<string, number>();
  for (const task of proc.tasks.values()) if (task.kind === 'step') runs.set(task.node.id, (runs.get(task.node.id) ?? 0) + 1);
  return [...runs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([id, n]) => `'${id}' ${n} times`);
}

export function stepBudgetError(proc: Process, budget: number): ActError {
  const steps = busiestSteps(proc, 3);
  const loop = steps.length > 0 ? `; the loop runs through step ${steps.join(', ')}` : '';
  return new ActError(
    'process.step_budget',
    `the process used up its step budget of ${budget} tasks (step_budget)${loop}: give the loop an act that waits, or a condition that ends it`,
    { budget },
  );
}

export function isStepBudgetError(err: unknown): boolean {
  return ActError.is(err) && err.code === 'process.step_budget';
}
