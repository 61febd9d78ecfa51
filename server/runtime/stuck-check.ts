/**
 * Finds the resident processes that nothing can move (the liveness invariant of liveness.ts),
 * from what this engine knows: its lanes, armed timeout rules, subflow children (resident, in the
 * store, or starting) and open outbox records. In-memory facts decide most processes; only a
 * process with no mover in memory costs store reads.
 */
import type { Runtime } from './runtime-types.ts';
import { isUnfinishedName } from '../../vocab/states.ts';
import { findMover, stuckReport, type LivenessFacts, type StuckProcess } from './liveness.ts';
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';


function memoryFacts(rt: Runtime, childRows: Map<string, boolean>, outbox: Set<string>): LivenessFacts {
  return {
    queued: (pid) => rt.jobs.queue.queuedFor(pid) > 0 || rt.jobs.awaitsAside(pid),
    armed: (task) => rt.timed.has(task),
    childAlive: (task: Task) => {
      if (rt.startingChildren.has(task)) return true;
      if (!task.childPid) return false;
      const child = rt.procs.get(task.childPid);
      if (child) return !child.finished;
      return childRows.get(task.childPid) ?? false;
    },
    outbox: (pid) => outbox.has(pid),
  };
}

/** The store's view of a candidate: its open outbox records and its non-resident children. */
async function storeFacts(rt: Runtime, proc: Process, childRows: Map<string, boolean>, outbox: Set<string>): Promise<void> {
  if (await rt.store.queries.hasOpenOutboxRecords(proc.pid)) outbox.add(proc.pid);
  for (const task of proc.tasks.values()) {
    if (!task.childPid || rt.procs.has(task.childPid) || childRows.has(task.childPid)) continue;
    const row = await rt.store.procs.find(task.childPid);
    childRows.set(task.childPid, row !== undefined && isUnfinishedName(row.state));
  }
}

export async function findStuck(rt: Runtime): Promise<StuckProcess[]> {
  await rt.writer.flush();
  const childRows = new Map<string, boolean>();
  const outbox = new Set<string>();
  const facts = memoryFacts(rt, childRows, outbox);
  const stuck: StuckProcess[] = [];
  for (const proc of [...rt.procs.values()]) {
    if (proc.finished || proc.abandoned || findMover(proc, facts)) continue;
    await storeFacts(rt, proc, childRows, outbox);
    if (rt.procs.get(proc.pid) !== proc || proc.finished) continue;
    if (!findMover(proc, facts)) stuck.push(stuckReport(proc));
  }
  return stuck;
}
