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

export function startSubflow(core: Core, proc: Process, task: Task, mid: string, options: Vars): void {
  const childOptions = { ...options, $parent_pid: proc.pid, $parent_tid: task.tid };
  core.track(core.startProcess(mid, childOptions, { pid: proc.pid, tid: task.tid })).then(
    (child) =>
      core.job(proc.pid, `subflow-linked ${task.tid}`, () => {
        task.childPid = child.pid;
        core.markDirty(proc, task);
      }),
    (err) =>
      core.job(proc.pid, `subflow-failed ${task.tid}`, () =>
        failTask(core, proc, task, { ecode: '', message: `subflow '${mid}' could not start: ${errorMessage(err)}` }),
      ),
  );
}

/** A finished child reports to its parent act: aborted → abort, skipped → skip, error → error, else next. */
export function returnToParent(core: Core, child: Process): void {
  if (!child.parentPid || !child.parentTid) return;
  const parent = core.procs.get(child.parentPid);
  const act = parent?.tasks.get(child.parentTid);
  if (!parent || !act) return;
  const state = child.state;
  core.job(parent.pid, `subflow-return ${act.tid}`, () => {
    if (act.terminal) return;
    try {
      if (state === 'aborted') applyAction(core, parent, act, 'abort', child.outputs, { client: false });
      else if (state === 'skipped') applyAction(core, parent, act, 'skip', child.outputs, { client: false });
      else if (state === 'error') {
        const err = child.err ?? { ecode: '', message: 'subflow failed' };
        applyAction(core, parent, act, 'error', { ...child.outputs, ecode: err.ecode, message: err.message }, { client: false });
      } else applyAction(core, parent, act, 'next', child.outputs, { client: false });
    } catch (err) {
      core.log.warn(`subflow return to ${parent.pid}:${act.tid} failed: ${errorMessage(err)}`);
    }
  });
}

/** Aborts running child processes of subflow acts of a process that ended. */
export function abortChildren(core: Core, proc: Process): void {
  for (const task of proc.tasks.values()) {
    if (!task.childPid) continue;
    const child = core.procs.get(task.childPid);
    if (!child || child.finished || !child.root) continue;
    const root = child.root;
    core.job(child.pid, 'abort-child', () => {
      if (!child.finished) abortProcess(core, child, root);
    });
  }
}
