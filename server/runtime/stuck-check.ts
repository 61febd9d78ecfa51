/**
 * Finds the resident processes that nothing can move (the liveness invariant of liveness.ts),
 * from what this engine knows: its lanes, armed timeout rules, subflow children (resident, in the
 * store, or starting) and open outbox records. In-memory facts decide most processes; only a
 * process with no mover in memory costs store reads.
 */
import type { Core } from './core.ts';
import { isUnfinishedName } from '../../vocab/states.ts';
import { findMover, stuckReport, type LivenessFacts, type StuckProcess } from './liveness.ts';
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';


function memoryFacts(core: Core, childRows: Map<string, boolean>, outbox: Set<string>): LivenessFacts {
  return {
    queued: (pid) => core.queue.queuedFor(pid) > 0,
    armed: (task) => core.timed.has(task),
    childAlive: (task: Task) => {
      if (core.startingChildren.has(task)) return true;
      if (!task.childPid) return false;
      const child = core.procs.get(task.childPid);
      if (child) return !child.finished;
      return childRows.get(task.childPid) ?? false;
    },
    outbox: (pid) => outbox.has(pid),
  };
}

/** The store's view of a candidate: its open outbox records and its non-resident children. */
async function storeFacts(core: Core, proc: Process, childRows: Map<string, boolean>, outbox: Set<string>): Promise<void> {
  if (await core.store.queries.hasOpenOutboxRecords(proc.pid)) outbox.add(proc.pid);
  for (const task of proc.tasks.values()) {
    if (!task.childPid || core.procs.has(task.childPid) || childRows.has(task.childPid)) continue;
    const row = await core.store.procs.find(task.childPid);
    childRows.set(task.childPid, row !== undefined && isUnfinishedName(row.state));
  }
}

export async function findStuck(core: Core): Promise<StuckProcess[]> {
  await core.writer.flush();
  const childRows = new Map<string, boolean>();
  const outbox = new Set<string>();
  const facts = memoryFacts(core, childRows, outbox);
  const stuck: StuckProcess[] = [];
  for (const proc of [...core.procs.values()]) {
    if (proc.finished || proc.abandoned || findMover(proc, facts)) continue;
    await storeFacts(core, proc, childRows, outbox);
    if (core.procs.get(proc.pid) !== proc || proc.finished) continue;
    if (!findMover(proc, facts)) stuck.push(stuckReport(proc));
  }
  return stuck;
}
