/**
 * The liveness invariant (issue 9): an unfinished process must always have something that can
 * move it — an open interrupt, an armed timeout rule with steps, a queued job, a subflow child
 * that is still running (or starting), an outbox record (an overflowed execution, an action
 * not yet applied, a relay from another instance), or an operator it waits for (paused, or an
 * open incident: engine/control.ts). A process with none of these would stay
 * `running` forever; `findMover` says which one is there, or null for a stuck process.
 *
 * Pure: the runtime passes the facts it knows (lanes, timers, children, outbox) through
 * `LivenessFacts`; the simulation and the stuck-process detector call the same function.
 */
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';
import { waitsForOperator } from '../../vocab/control.ts';

export type MoverKind = 'interrupt' | 'timer' | 'job' | 'child' | 'outbox' | 'operator';

export interface Mover {
  kind: MoverKind;
  /** The task that can move the process (none for queued jobs and outbox records). */
  tid?: string;
}

export interface LivenessFacts {
  /** Jobs of the process queued in the lanes, or coming (a code act's answer, an http act's call out). */
  queued(pid: string): boolean;
  /** Whether the task's timeout rules are armed (checked on the tick). */
  armed(task: Task): boolean;
  /** Whether the child process of a subflow act is running, parked or still starting. */
  childAlive(task: Task): boolean;
  /** Outbox records of the process that are not done yet. */
  outbox(pid: string): boolean;
}

/** Whether every enclosing task of `task` is still open (an answer could reach the root). */
export function reachesRoot(task: Task): boolean {
  for (let t = task.parent; t; t = t.parent) if (t.terminal) return false;
  return true;
}

function hasPendingTimer(task: Task, facts: LivenessFacts): boolean {
  if (!facts.armed(task)) return false;
  return task.node.timeouts.some((rule, i) => rule.head !== null && Number.isFinite(rule.ms) && !task.firedTimeouts.has(i));
}

/** What can move an unfinished process, or null when nothing can (the process is stuck). */
export function findMover(proc: Process, facts: LivenessFacts): Mover | null {
  if (facts.queued(proc.pid)) return { kind: 'job' };
  if (waitsForOperator(proc.control)) return { kind: 'operator' };
  for (const task of proc.tasks.values()) {
    if (task.terminal || task.isHook || !reachesRoot(task)) continue;
    if (task.state === 'interrupted') return { kind: 'interrupt', tid: task.tid };
    if (hasPendingTimer(task, facts)) return { kind: 'timer', tid: task.tid };
    if (task.kind === 'act' && task.state === 'running' && facts.childAlive(task)) return { kind: 'child', tid: task.tid };
  }
  if (facts.outbox(proc.pid)) return { kind: 'outbox' };
  return null;
}

/** A process nothing can move, with its task table for the report. */
export interface StuckProcess {
  pid: string;
  mid: string;
  state: string;
  /** One line per task: `tid nid kind state`, in creation order. */
  tasks: string[];
}

export function stuckReport(proc: Process): StuckProcess {
  const tasks = [...proc.tasks.values()].map((t) => `${t.tid} ${t.node.id} ${t.kind} ${t.state}${t.isHook ? ' (hook)' : ''}`);
  return { pid: proc.pid, mid: proc.mid, state: proc.state, tasks };
}
