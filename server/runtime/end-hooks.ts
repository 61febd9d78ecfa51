/**
 * Hooks fired by the end of a process (spec 2.8: a root `on: completed`, the last `step` or
 * `updated`, an act's `updated` emitted after the action it applied ended the process) run after
 * the process finished and left memory. Each gets an `exec` record in the batch that fired it
 * (finishProcess, Runtime.schedule), closed once the hook leaves the engine's hands (done, or
 * waiting for a client), so the outbox holds every such hook until it ran. After a restart the records still open are the hooks that never ran:
 * their finished process is read back from its rows (not resident: it takes no slot) and the hooks
 * run on it. While this engine runs, the tick leaves those records alone: their jobs are queued
 * here. On a shared store only the instance that owns the finished process runs them.
 */
import type { Runtime } from './runtime-types.ts';
import { errorMessage } from '../engine/errors.ts';
import { multiInstance } from './relay-records.ts';
import type { Process } from '../engine/process.ts';
import { isEngineWork, isTerminalName } from '../../vocab/states.ts';
import type { OpRow, ProcRow } from '../store/contract/types.ts';
import { rerunIfCutOff } from './restore.ts';

/** Whether an exec record of a finished process stands for hook work not done yet. */
export async function isOpenEndHook(rt: Runtime, op: OpRow): Promise<boolean> {
  const row = op.tid ? await rt.store.tasks.find(`${op.pid}:${op.tid}`) : undefined;
  return !!row && isEngineWork(row.state);
}

/** What a boot does with the open exec records of a process that is not resident. */
type Fate = Process | 'close' | 'leave';

/**
 * Boot: runs the hooks of finished processes whose exec records are still open (the others are
 * closed; those of unfinished processes wait for their process to be loaded). Returns how many ran.
 */
export async function resumeEndHooks(rt: Runtime, records: readonly OpRow[], load: (row: ProcRow) => Promise<Process>): Promise<number> {
  const fates = new Map<string, Fate>();
  let dispatched = 0;
  for (const op of records) {
    if (rt.procs.has(op.pid)) continue;
    let fate = fates.get(op.pid);
    if (fate === undefined) fates.set(op.pid, (fate = await fateOf(rt, op.pid, load)));
    if (fate === 'leave') continue;
    const task = fate !== 'close' && op.tid ? fate.tasks.get(op.tid) : undefined;
    if (fate === 'close' || !task || !rt.executions.stillRuns(fate, task)) {
      rt.outbox.close(op);
      continue;
    }
    // a code act cut off while it ran starts again, as an act of an unfinished process does
    rerunIfCutOff(fate, task);
    // handed to its lane as lanes have room, like an execution a full lane refused
    rt.outbox.refused.set(op.id, { proc: fate, task, op, batch: 0 });
    dispatched++;
  }
  rt.executions.drainOverflow();
  void rt.batch.flush();
  return dispatched;
}

async function fateOf(rt: Runtime, pid: string, load: (row: ProcRow) => Promise<Process>): Promise<Fate> {
  const row = await rt.store.procs.find(pid);
  if (!row) return 'close';
  if (!isTerminalName(row.state)) return 'leave';
  if (row.owner !== rt.config.instanceId && multiInstance(rt.store)) return 'leave';
  try {
    const proc = await load(row);
    rt.tasks.wireRestored(proc);
    return proc;
  } catch (err) {
    rt.log.error(`cannot run the end hooks of process '${pid}': ${errorMessage(err)}`);
    return 'close';
  }
}
