/**
 * Subflow call and return (spec 2.7): a subflow act starts a child process and stays running; the
 * child's end is turned into an action on that act. A parent that ends first aborts its children.
 * Where those processes run is the port's affair (subflow-routing.ts carries the effects out).
 */
import { applyAction } from './actions.ts';
import type { ChildEnd, EngineContext } from './context.ts';
import { errorMessage } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';

/** A subflow act starts its child process and waits for it (the port links the child later). */
export function startSubflow(core: EngineContext, proc: Process, task: Task, mid: string, options: Vars): void {
  core.startChild(proc, task, mid, { ...options, $parent_pid: proc.pid, $parent_tid: task.tid });
}

/** The child's end as an action on the parent's act: aborted → abort, skipped → skip, error → error, else next. */
export function applyChildEnd(core: EngineContext, parent: Process, act: Task, end: ChildEnd): void {
  if (act.terminal) return;
  // the child is gone: nothing holds the act any more (a caught child error lets it complete)
  act.autoComplete = true;
  core.markDirty(parent, act);
  try {
    if (end.state === 'aborted') applyAction(core, parent, act, 'abort', end.outputs, { client: false });
    else if (end.state === 'skipped') applyAction(core, parent, act, 'skip', end.outputs, { client: false });
    else if (end.state === 'error') {
      const err = end.err ?? { ecode: '', message: 'subflow failed' };
      applyAction(core, parent, act, 'error', { ...end.outputs, ecode: err.ecode, message: err.message }, { client: false });
    } else applyAction(core, parent, act, 'next', end.outputs, { client: false });
  } catch (err) {
    core.log.warn(`subflow return to ${parent.pid}:${act.tid} failed: ${errorMessage(err)}`);
  }
}
