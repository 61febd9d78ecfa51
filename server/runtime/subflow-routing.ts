/**
 * Carrying out the subflow effects of the engine's port (context.ts): starting a child process
 * and linking it to its act, a finished child's report to its parent's act, and the abort of a
 * child whose act was closed — each in the lane of the process it changes, or, when that process
 * runs on another instance, as a relay record (relay.ts) written with the current job.
 */
import type { EngineContext, ParentRef } from '../engine/context.ts';
import { errorMessage } from '../engine/errors.ts';
import { abortProcess } from '../engine/finish.ts';
import { failTask } from '../engine/flow.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Process } from '../engine/process.ts';
import { multiInstance, relayLater } from './relay-records.ts';
import type { OpRow, Store } from '../store/contract/types.ts';
import { applyChildEnd } from '../engine/subflow.ts';
import type { ChildEnd } from '../engine/context.ts';
import type { Task } from '../engine/task.ts';

/** What routing needs of the engine beyond its port. */
export interface RoutingHost extends EngineContext {
  readonly procs: Map<string, Process>;
  readonly store: Store;
  readonly startingChildren: Set<Task>;
  job(pid: string, name: string, run: () => void): boolean;
  track<T>(work: Promise<T>): Promise<T>;
  startProcess(mid: string, options: Vars, parent: ParentRef | null): Promise<Process>;
  readonly outbox: { write(op: OpRow): void };
}

/** Starts the child of a subflow act; the act learns its pid, or fails, in a later job. */
export function startChildProcess(host: RoutingHost, proc: Process, task: Task, mid: string, options: Vars): void {
  host.startingChildren.add(task);
  host.track(host.startProcess(mid, options, { pid: proc.pid, tid: task.tid })).then(
    (child) => {
      host.startingChildren.delete(task);
      host.job(proc.pid, `subflow-linked ${task.tid}`, () => {
        task.childPid = child.pid;
        host.markDirty(proc, task);
        // the act was closed while its child started: the child can no longer report to it
        if (task.terminal || proc.finished) abortChildOf(host, task);
      });
    },
    (err) => {
      host.startingChildren.delete(task);
      host.job(proc.pid, `subflow-failed ${task.tid}`, () => {
        // no child to wait for: a catch that handles the failure lets the act complete
        task.autoComplete = true;
        failTask(host, proc, task, { ecode: '', message: `subflow '${mid}' could not start: ${errorMessage(err)}` });
      });
    },
  );
}

/** A finished child reports to its parent act: in the parent's lane, or relayed to its instance. */
export function returnToParent(host: RoutingHost, child: Process): void {
  if (!child.parentPid || !child.parentTid) return;
  const end: ChildEnd = { state: child.state, outputs: child.outputs, err: child.err ?? null };
  const parent = host.procs.get(child.parentPid);
  if (!parent) {
    if (multiInstance(host.store)) relayLater(host, child.parentPid, child.parentTid, 'subflow:return', end as unknown as Vars);
    return;
  }
  const act = parent.tasks.get(child.parentTid);
  if (!act) return;
  // waiting for a code worker, the end applies again in the held lane; if the parent left this
  // engine meanwhile, its next owner returns the (finished) child to its act again
  const apply = (): void => void applyChildEnd(host, parent, act, end, { retry: apply, gone: () => undefined });
  host.job(parent.pid, `subflow-return ${act.tid}`, apply);
}

/**
 * Aborts the child process of a subflow act that was closed before its child returned (the act
 * was skipped, cancelled, backed… or its process ended): nothing would ever hear its end.
 */
export function abortChildOf(host: RoutingHost, task: Task): void {
  if (!task.childPid) return;
  const child = host.procs.get(task.childPid);
  if (!child) {
    // parked, or running on another instance (finished children close the record unapplied)
    if (multiInstance(host.store)) relayLater(host, task.childPid, '$', 'subflow:abort', {});
    return;
  }
  if (child.finished || !child.root) return;
  const root = child.root;
  host.job(child.pid, 'abort-child', () => {
    if (!child.finished) abortProcess(host, child, root);
  });
}
