/**
 * A task's birth and its state changes, as the model defines them (spec 2.1–2.3): the id and
 * creation order a new task gets, the step budget it counts against, the options an act inherits
 * from its block; the times and the process state a state change sets. Pure: the runtime writes
 * the rows these changes dirty (runtime/task-writes.ts).
 */
import type { IdSource } from './clock.ts';
import type { Process } from './process.ts';
import { stepBudgetError } from './step-budget.ts';
import { Task } from './task.ts';
import { asAct, type Node } from './tree/node.ts';
import { isCreatedLike, isTerminal, type TaskState } from '../../vocab/states.ts';

/** A new task of `proc` for `node` (not added to the process yet); throws when the step budget is spent. */
export function newTask(proc: Process, node: Node, prev: Task | null, parent: Task | null, isHook: boolean, newId: IdSource, stepBudget: number): Task {
  const tid = parent === null && prev === null ? '$' : newId(8);
  const seq = proc.nextSeq();
  if (seq > stepBudget) throw stepBudgetError(proc, stepBudget);
  const task = new Task(proc.pid, tid, node, prev, parent, isHook, seq);
  if (node.kind === 'act') {
    // Acts inside a block carry the block's options (`$index`, `$value` of a fan-out).
    const inherited = parent?.kind === 'act' && !isHook ? parent.options : {};
    task.options = { ...inherited, ...asAct(node).options };
  }
  return task;
}

/** Moves a task to `state`: its start or end time, its error cleared, its process running once the root is. */
export function enterState(proc: Process, task: Task, state: TaskState, now: number): void {
  if (isCreatedLike(state)) task.startTime = now;
  if (isTerminal(state)) task.endTime = now;
  if (state !== 'error') task.err = null;
  task.state = state;
  if (task.tid === '$') {
    if (state === 'ready' || state === 'running') proc.state = 'running';
    if (proc.startTime === 0) proc.startTime = now;
  }
}
