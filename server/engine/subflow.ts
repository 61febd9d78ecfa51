/**
 * Subflow call and return (spec 2.7): a subflow act starts a child process and stays running; the
 * child's end is turned into an action on that act. A parent that ends first aborts its children.
 * Where those processes run is the port's affair (subflow-routing.ts carries the effects out).
 */
import { applyAction, planAction, type ActionContinuation, type ActionName } from './actions.ts';
import { dropAhead, evaluateAhead } from './closing.ts';
import type { ChildEnd, EngineContext } from './context.ts';
import { errorMessage } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';

/** A subflow act starts its child process and waits for it (the port links the child later). */
export function startSubflow(core: EngineContext, proc: Process, task: Task, mid: string, options: Vars): void {
  core.startChild(proc, task, mid, { ...options, $parent_pid: proc.pid, $parent_tid: task.tid });
}

/** The action a child's end is on its act: aborted → abort, skipped → skip, error → error, else next. */
function endAction(end: ChildEnd): { action: ActionName; options: Vars } {
  if (end.state === 'aborted') return { action: 'abort', options: end.outputs };
  if (end.state === 'skipped') return { action: 'skip', options: end.outputs };
  if (end.state !== 'error') return { action: 'next', options: end.outputs };
  const err = end.err ?? { ecode: '', message: 'subflow failed' };
  return { action: 'error', options: { ...end.outputs, ecode: err.ecode, message: err.message } };
}

/**
 * The child's end as an action on the parent's act. With code workers the outputs of what the
 * action closes are evaluated first (closing.ts): `deferred` — nothing changed (the act still
 * waits for its child, so a restart returns the child again), and `continuation.retry` applies
 * the end once the worker answered.
 */
export function applyChildEnd(core: EngineContext, parent: Process, act: Task, end: ChildEnd, continuation?: ActionContinuation): 'applied' | 'deferred' {
  if (act.terminal) return 'applied';
  const { action, options } = endAction(end);
  const ahead = continuation ? planAction(core, parent, act, action, options) : [];
  if (continuation && !evaluateAhead(core, parent, ahead, continuation.retry, continuation.gone)) return 'deferred';
  // the child is gone: nothing holds the act any more (a caught child error lets it complete)
  act.autoComplete = true;
  core.markDirty(parent, act);
  try {
    applyAction(core, parent, act, action, options, { client: false });
  } catch (err) {
    core.log.warn(`subflow return to ${parent.pid}:${act.tid} failed: ${errorMessage(err)}`);
  } finally {
    dropAhead(ahead);
  }
  return 'applied';
}
