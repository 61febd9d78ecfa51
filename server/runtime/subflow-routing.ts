/**
 * Carrying out the subflow effects of the engine's port (context.ts): starting a child process
 * and linking it to its act, a finished child's report to its parent's act, and the abort of a
 * child whose act was closed — each in the lane of the process it changes, or, when that process
 * runs on another instance, as a relay record (relay.ts) written with the current job.
 */
import type { EngineContext } from '../engine/context.ts';
import { errorMessage } from '../engine/errors.ts';
import { abortProcess } from '../engine/finish.ts';
import { failTask } from '../engine/flow.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Process } from '../engine/process.ts';
import { multiInstance, relayLater } from './relay-records.ts';
import type { Runtime } from './runtime-types.ts';
import { applyChildEnd } from '../engine/subflow.ts';
import type { ChildEnd } from '../engine/context.ts';
import type { Task } from '../engine/task.ts';

/** The runtime's parts routing uses (runtime.ts); the engine's work is done through its port. */
export type RoutingParts = Pick<Runtime, 'procs' | 'store' | 'startingChildren' | 'jobs' | 'links' | 'outbox' | 'newId' | 'clock'>;

/** Starts the child of a subflow act; the act learns its pid, or fails, in a later job. */
export function startChildProcess(rt: RoutingParts, port: EngineContext, proc: Process, task: Task, mid: string, options: Vars): void {
  rt.startingChildren.add(task);
  rt.jobs.track(rt.links.startProcess(mid, options, { pid: proc.pid, tid: task.tid })).then(
    (child) => {
      rt.startingChildren.delete(task);
      rt.jobs.job(proc.pid, `subflow-linked ${task.tid}`, () => {
        task.childPid = child.pid;
        port.markDirty(proc, task);
        // the act was closed while its child started: the child can no longer report to it
        if (task.terminal || proc.finished) abortChildOf(rt, port, task);
      });
    },
    (err) => {
      rt.startingChildren.delete(task);
      rt.jobs.job(proc.pid, `subflow-failed ${task.tid}`, () => {
        // no child to wait for: a catch that handles the failure lets the act complete
        task.autoComplete = true;
        failTask(port, proc, task, { ecode: '', message: `subflow '${mid}' could not start: ${errorMessage(err)}` });
      });
    },
  );
}

/** A finished child reports to its parent act: in the parent's lane, or relayed to its instance. */
export function returnToParent(rt: RoutingParts, port: EngineContext, child: Process): void {
  if (!child.parentPid || !child.parentTid) return;
  const end: ChildEnd = { state: child.state, outputs: child.outputs, err: child.err ?? null };
  const parent = rt.procs.get(child.parentPid);
  if (!parent) {
    if (multiInstance(rt.store)) relayLater(rt, child.parentPid, child.parentTid, 'subflow:return', end as unknown as Vars);
    return;
  }
  const act = parent.tasks.get(child.parentTid);
  if (!act) return;
  // waiting for a code worker, the end applies again in the held lane; if the parent left this
  // engine meanwhile, its next owner returns the (finished) child to its act again
  const apply = (): void => void applyChildEnd(port, parent, act, end, { retry: apply, gone: () => undefined });
  rt.jobs.job(parent.pid, `subflow-return ${act.tid}`, apply);
}

/**
 * Aborts the child process of a subflow act that was closed before its child returned (the act
 * was skipped, cancelled, backed… or its process ended): nothing would ever hear its end.
 */
export function abortChildOf(rt: RoutingParts, port: EngineContext, task: Task): void {
  if (!task.childPid) return;
  const child = rt.procs.get(task.childPid);
  if (!child) {
    // parked, or running on another instance (finished children close the record unapplied)
    if (multiInstance(rt.store)) relayLater(rt, task.childPid, '$', 'subflow:abort', {});
    return;
  }
  if (child.finished || !child.root) return;
  const root = child.root;
  rt.jobs.job(child.pid, 'abort-child', () => {
    if (!child.finished) abortProcess(port, child, root);
  });
}
