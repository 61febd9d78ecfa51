/**
 * Executions of tasks (init → run → proceed, engine/exec.ts) queued in their process's lane. When
 * a lane is full the execution is recorded in the outbox instead (an `exec` record, written with
 * the current batch) and handed back as soon as the lane has room (`drainOverflow`); the tick
 * replays records this engine no longer holds in memory (spec 5.4).
 *
 * State: none of its own — the refused executions are the outbox's (`Outbox.refused`).
 */
import type { FaultPoint } from '../engine/context.ts';
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';
import type { OpRow } from '../store/contract/types.ts';
import type { JobBatch } from './job-batch.ts';
import type { Jobs } from './jobs.ts';
import type { Outbox } from './outbox.ts';

export class Executions {
  constructor(
    private readonly jobs: Jobs,
    private readonly batch: JobBatch,
    private readonly outbox: Outbox,
    private readonly procs: ReadonlyMap<string, Process>,
    /** Runs a task's execution (engine/exec.ts, with the engine's port). */
    private readonly run: (proc: Process, task: Task) => void,
    private readonly fault: (point: FaultPoint) => void,
  ) {}

  /** Queues the execution of a task; false when the lane refused it and the outbox holds it. */
  schedule(proc: Process, task: Task, op?: OpRow): boolean {
    // hook work of a finished process: no longer loaded after a restart, so the outbox holds it
    if (!op && proc.finished && task.inHook) this.recordExec(proc, task);
    // a process with executions waiting in the overflow keeps their order: a new one waits behind them
    const accepted = (op !== undefined || !this.outbox.refused.waitsFor(proc.pid)) && this.jobs.job(
      proc.pid,
      `exec ${task.tid}`,
      () => {
        this.outbox.executionStarts(proc, task, op);
        this.run(proc, task);
      },
      false,
    );
    if (!accepted && !op) this.outbox.refuse(proc, task, this.batch.seq + 1);
    return accepted;
  }

  recordExec(proc: Process, task: Task): void {
    if (!this.outbox.holds(task)) this.outbox.recordExec(proc, task);
  }

  /**
   * Whether a task of a process still has work here: an open task of a resident unfinished
   * process, or a hook that the end of its (finished, evicted) process fired.
   */
  stillRuns(proc: Process, task: Task): boolean {
    if (task.terminal || proc.abandoned) return false;
    return this.procs.get(proc.pid) === proc ? !proc.finished : proc.finished && task.inHook;
  }

  /**
   * Hands overflowed executions back to their lanes while those have room (after every drain
   * pass and every commit), so an overload burst drains at the lanes' pace instead of waiting for
   * the tick. A record goes back once the batch that wrote it settled; records whose task or
   * process is gone meanwhile are closed.
   */
  drainOverflow(): void {
    const refused = this.outbox.refused;
    if (refused.size === 0) return;
    let wrote = false;
    for (const [id, { proc, task, op, batch }] of refused) {
      if (batch > this.batch.committedSeq) break;
      const gone = !this.stillRuns(proc, task);
      if (!gone && !this.jobs.queue.hasRoom(proc.pid)) continue;
      if (!gone) this.fault('overflow:replay');
      refused.delete(id);
      wrote = true;
      if (gone) this.outbox.close(op);
      else this.schedule(proc, task, this.outbox.dispatch(op));
    }
    if (wrote) void this.batch.flush();
  }
}
