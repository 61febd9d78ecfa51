/**
 * The variables a node's task saw in a recorded run, for pinning them as a step test's inputs
 * (stepTests.pins): the process's start inputs (the root task's inputs), then the outputs of every
 * other task of the process that had ended by the time this one started — in the order they ended
 * — then the task's own inputs. The task's own descendants and its ancestors do not count (they
 * end with or after it). An approximation of the scope at that moment from the rows as they are
 * now: a value written and not output, or a task that ended in the same millisecond as this one
 * started but after it, can differ.
 */
import type { TaskInfo } from '../runtime/info.ts';

const isPrivate = (key: string) => key === 'data' || key.startsWith('__');

function without(vars: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(vars).filter(([key]) => !isPrivate(key)));
}

/** Tids of `task` and everything under it, and of its ancestors. */
function related(tasks: readonly TaskInfo[], task: TaskInfo): Set<string> {
  const byTid = new Map(tasks.map((t) => [t.tid, t]));
  const out = new Set<string>([task.tid]);
  for (let t = task.parent ? byTid.get(task.parent) : undefined; t; t = t.parent ? byTid.get(t.parent) : undefined) out.add(t.tid);
  const under = (t: TaskInfo): boolean => {
    for (let p = t.parent ? byTid.get(t.parent) : undefined; p; p = p.parent ? byTid.get(p.parent) : undefined) if (p.tid === task.tid) return true;
    return false;
  };
  for (const t of tasks) if (under(t)) out.add(t.tid);
  return out;
}

export function pinnedVars(tasks: readonly TaskInfo[], task: TaskInfo): Record<string, unknown> {
  const root = tasks.find((t) => t.kind === 'workflow');
  const skip = related(tasks, task);
  const before = tasks
    .filter((t) => !skip.has(t.tid) && t.end_time > 0 && t.end_time <= task.start_time)
    .sort((a, b) => a.end_time - b.end_time);
  const seen: Record<string, unknown> = { ...without(root?.inputs ?? {}) };
  for (const t of before) Object.assign(seen, without(t.outputs));
  return { ...seen, ...without(task.inputs) };
}
