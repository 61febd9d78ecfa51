/**
 * Subflow call and return (spec 2.7): a subflow act starts a child process and stays running; the
 * child's end is turned into an action on that act. A parent that ends first aborts its children.
 */
import { applyAction } from './actions.ts';
import type { Core } from './core.ts';
import { errorMessage } from './errors.ts';
import { failTask } from './flow.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { abortProcess } from './finish.ts';
import { multiInstance } from './instances.ts';
import { relayLater } from './relay.ts';
import type { ErrorInfo } from './store/types.ts';

export function startSubflow(core: Core, proc: Process, task: Task, mid: string, options: Vars): void {
  const childOptions = { ...options, $parent_pid: proc.pid, $parent_tid: task.tid };
  core.startingChildren.add(task);
  core.track(core.startProcess(mid, childOptions, { pid: proc.pid, tid: task.tid })).then(
    (child) => {
      core.startingChildren.delete(task);
      core.job(proc.pid, `subflow-linked ${task.tid}`, () => {
        task.childPid = child.pid;
        core.markDirty(proc, task);
        // the act was closed while its child started: the child can no longer report to it
        if (task.terminal || proc.finished) abortChildOf(core, task);
      });
    },
    (err) => {
      core.startingChildren.delete(task);
      core.job(proc.pid, `subflow-failed ${task.tid}`, () => {
        // no child to wait for: a catch that handles the failure lets the act complete
        task.autoComplete = true;
        failTask(core, proc, task, { ecode: '', message: `subflow '${mid}' could not start: ${errorMessage(err)}` });
      });
    },
  );
}

/** How a child process ended, as its parent's subflow act hears it. */
export interface ChildEnd {
  state: string;
  outputs: Vars;
  err: ErrorInfo | null;
}

/**
 * A finished child reports to its parent act. When the parent runs on another engine instance
 * the report goes there as a relay record written with the child's end (relay.ts).
 */
export function returnToParent(core: Core, child: Process): void {
  if (!child.parentPid || !child.parentTid) return;
  const end: ChildEnd = { state: child.state, outputs: child.outputs, err: child.err ?? null };
  const parent = core.procs.get(child.parentPid);
  if (!parent) {
    if (multiInstance(core.store)) relayLater(core, child.parentPid, child.parentTid, 'subflow:return', end as unknown as Vars);
    return;
  }
  const act = parent.tasks.get(child.parentTid);
  if (!act) return;
  core.job(parent.pid, `subflow-return ${act.tid}`, () => applyChildEnd(core, parent, act, end));
}

/** The child's end as an action on the parent's act: aborted → abort, skipped → skip, error → error, else next. */
export function applyChildEnd(core: Core, parent: Process, act: Task, end: ChildEnd): void {
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

/** Aborts running child processes of subflow acts of a process that ended. */
export function abortChildren(core: Core, proc: Process): void {
  for (const task of proc.tasks.values()) abortChildOf(core, task);
}

/**
 * Aborts the child process of a subflow act that was closed before its child returned (the act
 * was skipped, cancelled, backed… or its process ended): nothing would ever hear its end.
 */
export function abortChildOf(core: Core, task: Task): void {
  if (!task.childPid) return;
  const child = core.procs.get(task.childPid);
  if (!child) {
    // parked, or running on another instance (finished children close the record unapplied)
    if (multiInstance(core.store)) relayLater(core, task.childPid, '$', 'subflow:abort', {});
    return;
  }
  if (child.finished || !child.root) return;
  const root = child.root;
  core.job(child.pid, 'abort-child', () => {
    if (!child.finished) abortProcess(core, child, root);
  });
}
