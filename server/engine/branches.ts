/**
 * Conditions and branch selection (spec 2.5 with section 0.3): a task's `if`, which branch of a
 * step runs, waits (`needs`, `else`) or is skipped. Decisions only: the caller changes states.
 */
import type { EngineContext } from './context.ts';
import { evaluateCondition } from './expr/templates.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { asBranch } from './tree/node.ts';

/** Whether the task's `if` holds (no `if`: it does). */
export function condition(core: EngineContext, proc: Process, task: Task): boolean {
  const src = (task.node.content as { if?: string }).if;
  if (src === undefined || src.trim() === '') return true;
  return evaluateCondition(src, core.evaluator(proc, task));
}

/** Whether a branch runs now, waits for its siblings, or is skipped. */
export function selectBranch(core: EngineContext, proc: Process, task: Task): 'ready' | 'pending' | 'skipped' {
  const b = asBranch(task.node);
  // the branches it needs may have finished before it started (skipped by their `if`)
  if (b.needs.length > 0 && !neededDone(proc, task)) return 'pending';
  if (b.if !== undefined && b.if.trim() !== '') return condition(core, proc, task) ? 'ready' : 'skipped';
  if (b.needs.length > 0) return 'ready';
  if (!b.else) return 'skipped';
  const siblings = branchSiblings(proc, task);
  if (siblings.length === 0) return 'ready';
  return elseDecision(siblings) ?? 'pending';
}

/** Whether every sibling branch a branch `needs` is terminal. */
export function neededDone(proc: Process, branch: Task): boolean {
  const needs = asBranch(branch.node).needs;
  return branchSiblings(proc, branch).every((t) => !needs.includes(t.node.id) || t.terminal);
}

export function branchSiblings(proc: Process, task: Task): Task[] {
  return task.parent ? proc.children(task.parent).filter((t) => t.kind === 'branch' && t !== task) : [];
}

/** An else branch runs when every sibling was skipped and is skipped once one of them ran. */
export function elseDecision(siblings: Task[]): 'ready' | 'skipped' | null {
  if (siblings.some((s) => s.state !== 'skipped' && s.state !== 'none' && s.state !== 'pending' && !asBranch(s.node).else)) {
    return 'skipped';
  }
  const others = siblings.filter((s) => !asBranch(s.node).else);
  return others.every((s) => s.state === 'skipped') ? 'ready' : null;
}
