/**
 * Jobs: work of one process runs in its lane (lanes.ts), one job at a time, and the store writes
 * that the jobs of one turn of a process caused go out as one batch after they ran
 * (job-batch.ts). Work that runs off the engine's thread (a code worker's answer) holds its lane
 * until it settles (`offLane`); I/O of a job (an HTTP call) runs beside the lanes without holding
 * one and comes back as a new job (`aside`); asynchronous engine work outside the lanes (subflow
 * starts, those I/O calls) is tracked until it settles (`inFlight`, awaited by the engine's `idle`).
 *
 * State: the lanes and their queued jobs; `inFlight`, the promises not settled yet; per process,
 * its I/O calls out.
 */
import { errorMessage } from '../engine/errors.ts';
import type { Logger } from '../engine/logger.ts';
import type { Outcome } from '../engine/sandbox/types.ts';
import type { TypedEmitter, EngineEvents } from './events.ts';
import type { JobBatch } from './job-batch.ts';
import { Lanes } from './lanes.ts';

export interface JobsConfig {
  workers: number;
  queueCap: number;
  /** Jobs a drain pass of the lanes runs before it yields (lanes.ts). */
  passJobs?: number;
}

export class Jobs {
  readonly queue: Lanes;
  readonly inFlight = new Set<Promise<unknown>>();
  /** Per process, its `aside` calls not answered yet. */
  private readonly asides = new Map<string, number>();

  constructor(
    config: JobsConfig,
    private readonly batch: JobBatch,
    events: TypedEmitter<EngineEvents>,
    private readonly log: Logger,
    /** A drain pass of the lanes ended: they may take overflowed work again. */
    hasRoom: () => void,
  ) {
    this.queue = new Lanes(
      config.workers,
      config.queueCap,
      (job, err) => log.error(`job ${job.name} of process ${job.pid} panicked: ${errorMessage(err)}`),
      hasRoom,
      (change) => (change.full ? events.emit('laneFull', change.fill) : events.emit('laneDrained', change.fill)),
      (pid) => void this.batch.turnEnded(pid),
      config.passJobs,
    );
  }

  /**
   * Queues work for a process; the store writes it causes go out with its turn's batch.
   * Engine continuations are forced past the lane bound (see lanes.ts); others may be refused.
   */
  job(pid: string, name: string, run: () => void, force = true): boolean {
    return this.queue.push({ pid, name, run }, force);
  }

  /**
   * Lets work of a job run off the engine's thread: the job's lane is held (its other jobs wait,
   * as if the work ran inside the job) until `work` settles, then `then` runs first in the lane as
   * a job of the process, with the outcome.
   */
  offLane<T>(pid: string, name: string, work: Promise<T>, then: (outcome: Outcome<T>) => void): void {
    const release = this.queue.hold(pid);
    // starts queued behind the held lane are not kept waiting for user code: their rows go now
    this.batch.releaseWhere((other) => this.queue.sameLane(other, pid));
    work.then(
      (value) => release({ pid, name, run: () => then({ ok: true, value }) }),
      (error: unknown) => release({ pid, name, run: () => then({ ok: false, error }) }),
    );
  }

  /**
   * Lets I/O of a job run beside the lanes: nothing is held (the process's other jobs and its
   * lane's other processes go on); once `work` settles, `then` is queued as a job of the process
   * with the outcome (forced past the lane bound: one per call). Tracked until that job is queued.
   */
  aside<T>(pid: string, name: string, work: Promise<T>, then: (outcome: Outcome<T>) => void): void {
    this.asides.set(pid, (this.asides.get(pid) ?? 0) + 1);
    const settled = work.then(
      (value): Outcome<T> => ({ ok: true, value }),
      (error: unknown): Outcome<T> => ({ ok: false, error }),
    );
    void this.track(
      settled.then((outcome) => {
        const left = (this.asides.get(pid) ?? 1) - 1;
        if (left > 0) this.asides.set(pid, left);
        else this.asides.delete(pid);
        this.job(pid, name, () => then(outcome));
      }),
    );
  }

  /** Whether I/O of the process is out (`aside`): its answer comes back as a job, so the process can move. */
  awaitsAside(pid: string): boolean {
    return this.asides.has(pid);
  }

  /** Tracks a promise of engine work until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = () => this.inFlight.delete(work);
    work.then(done, done);
    return work;
  }
}
