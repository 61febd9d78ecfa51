/**
 * Lanes (spec 5.1): `workers` queues; a job goes to lane hash(pid) mod workers, so the jobs of
 * one process run in order and never interleave. Within a lane the processes take turns, round
 * robin: a turn runs one process's jobs back to back, the ones they queue included (at most TURN),
 * and `afterTurn` then sends their writes as one batch — a chain of jobs that needs nothing from
 * outside runs in one turn instead of one job per pass between every other process's jobs, and a
 * task created and run in it is written once. Each lane holds at most `laneCapacity` jobs:
 * a full lane refuses work (the caller falls back to the durable outbox) instead of growing.
 * Engine-internal continuations (a subflow return, a fired timeout, a recovered action) may be
 * forced past the bound; there is at most one such job per task, so they cannot grow unbounded.
 *
 * A job that hands user code to a worker thread holds its lane (`hold`) until the code is done:
 * the continuation it releases with runs first, so the lane's order is kept as if the code had run
 * inside the job, while the event loop and the other lanes go on.
 *
 * States: idle (nothing queued, no drain scheduled) → draining (one process's turn in each
 * non-empty, unheld lane in turn, yielding to the event loop between passes; after each pass `onRoom` may hand
 * refused work back) → idle; a lane is open or held (by the job that runs in it, until every
 * piece of user code it handed off released it); closed
 * refuses everything.
 *
 * Beside those, each lane is roomy → full when it first refuses a job (`onFill`: `laneFull`) →
 * roomy again once a drain pass, with the overflow it handed back (`onRoom`), left it at half its
 * capacity or less (`laneDrained`). Reporting the transitions, not each refusal, keeps an
 * overloaded lane from reporting once per job: at most once per drain pass, and not at all while
 * its overflow keeps it above half.
 */
import { ActError } from '../engine/errors.ts';
import type { EngineEvents, LaneFill } from './events.ts';

export interface Job {
  pid: string;
  name: string;
  run(): void;
}

export interface LaneStats {
  workers: number;
  capacity: number;
  laneCapacity: number;
  depth: number;
  highWatermark: number;
  lanes: number[];
  /** Lanes held by user code running on a code worker. */
  held: number;
}

/** A process's lane as `Lanes.waitingOf` reports it. */
export interface LaneWait extends LaneFill {
  full: boolean;
  held: boolean;
  /** The names of the process's queued jobs (`exec <tid>`, `action <name> <tid>`, …), next first. */
  jobs: string[];
}

/**
 * Most jobs a drain pass runs before it yields to the event loop (it stops after the round over
 * the lanes in which it reached them).
 */
export const PASS_JOBS = 256;
/**
 * The same where the store writes elsewhere while the engine goes on (StoreWriter.pipelined:
 * SQLite's write thread, PostgreSQL's pipelined connection): a pass yields sooner, so the batches of the turns it ran go to that thread while the
 * next turns run, instead of all at once after a long pass — which left the write thread idle
 * during the pass and the engine's thread idle while the thread wrote them. bench:peers, SQLite,
 * 8,000 workflows, 5 alternating runs of both: median 3,307 workflows/s against 3,025 with 256
 * (every pair faster), p50 latency 1.38–1.47 ms against 1.63–1.99. The in-memory store keeps 256:
 * a shorter pass only adds passes there (32: 6,609–6,714 against 6,904–7,180). PostgreSQL's
 * pipelined connection counts too (StoreWriter.pipelined): 3,000 workflows, 3 alternating runs,
 * 1,762–2,276 workflows/s with 32 against 1,859–1,999 with 256, p50 1.95–2.59 ms against 2.59–2.81.
 */
export const PASS_JOBS_WRITES_ELSEWHERE = 32;
/** Most jobs one turn of a process runs (its chain of jobs, before the other processes' turn). */
const TURN = 64;

/** FNV-1a: a fast, stable hash of the pid. */
function hash(pid: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < pid.length; i++) {
    h ^= pid.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A lane's fill changed: it turned full (refusing `pid`'s job) or drained to half. */
export type OnFill = (change: { full: true; fill: EngineEvents['laneFull'] } | { full: false; fill: LaneFill }) => void;

/**
 * One lane: per process a FIFO of its jobs, and the processes with queued jobs in round-robin
 * order. A process's turn takes its jobs one after another, also those its jobs queue meanwhile
 * (up to TURN), so a process's chain of jobs runs back to back and writes one batch.
 */
class Lane {
  private readonly queues = new Map<string, Job[]>();
  /** Processes with queued jobs, not in their turn, next first (a plain array with a head). */
  private readonly order: string[] = [];
  private head = 0;
  private sizeNow = 0;
  /** Refused a job and has not drained to half its capacity since. */
  full = false;
  /** How many pieces of a job's user code run off the lane (see `Lanes.hold`). */
  held = 0;
  /** Continuations released while other holds are still out, in release order. */
  readonly released: Job[] = [];
  /** The process whose turn runs (its pid is not in `order` meanwhile). */
  private turn: string | undefined;

  get size(): number {
    return this.sizeNow;
  }

  push(job: Job): void {
    const queue = this.queues.get(job.pid);
    if (queue) queue.push(job);
    else {
      this.queues.set(job.pid, [job]);
      if (job.pid !== this.turn) this.order.push(job.pid);
    }
    this.sizeNow++;
  }

  /** Puts a job before every queued one: its process goes first, the job first in it. */
  unshift(job: Job): void {
    const queue = this.queues.get(job.pid);
    if (queue) {
      queue.unshift(job);
      const at = this.order.indexOf(job.pid, this.head);
      if (at >= 0) this.order.splice(at, 1);
    } else this.queues.set(job.pid, [job]);
    if (job.pid !== this.turn) {
      if (this.head > 0) this.order[--this.head] = job.pid;
      else this.order.unshift(job.pid);
    }
    this.sizeNow++;
  }

  /** The queued jobs of one process, next first (none while its turn runs them). */
  jobsOf(pid: string): readonly Job[] {
    return this.queues.get(pid) ?? [];
  }

  /** The process whose turn is next, or undefined; its turn runs until `endTurn`. */
  beginTurn(): string | undefined {
    if (this.head >= this.order.length) return undefined;
    const pid = this.order[this.head++];
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
    this.turn = pid;
    return pid;
  }

  /** The next job of the process in its turn. */
  next(pid: string): Job | undefined {
    const queue = this.queues.get(pid);
    const job = queue?.shift();
    if (!job) return undefined;
    this.sizeNow--;
    return job;
  }

  /** The turn ended: a process with jobs left goes to the back. */
  endTurn(pid: string): void {
    this.turn = undefined;
    const queue = this.queues.get(pid);
    if (queue && queue.length > 0) this.order.push(pid);
    else this.queues.delete(pid);
  }

  clear(): void {
    this.queues.clear();
    this.order.length = 0;
    this.head = 0;
    this.sizeNow = 0;
    this.turn = undefined;
  }
}

export class Lanes {
  private readonly lanes: Lane[];
  readonly laneCapacity: number;
  private draining = false;
  private closed = false;
  private depthNow = 0;
  private high = 0;
  private holds = 0;
  /** Queued jobs of each process (for the liveness check). */
  private readonly perPid = new Map<string, number>();
  private waiters: Array<() => void> = [];

  constructor(
    readonly workers: number,
    readonly capacity: number,
    private readonly onPanic: (job: Job, err: unknown) => void,
    /** Called after a drain pass that ran jobs: lanes have room again (overflow goes back in). */
    private readonly onRoom: () => void = () => {},
    private readonly onFill: OnFill = () => {},
    /** Called after each turn of a process (its jobs ran back to back): their writes go out. */
    private readonly afterTurn: (pid: string) => void = () => {},
    /** Jobs a drain pass runs before it yields (PASS_JOBS). */
    private readonly passJobs = PASS_JOBS,
  ) {
    // a pass of no job would never run one, and yield again at once, forever
    if (!Number.isSafeInteger(passJobs) || passJobs < 1) throw new ActError('config.invalid', `lanePassJobs must be a positive integer, got ${String(passJobs)}`);
    this.lanes = Array.from({ length: Math.max(1, workers) }, () => new Lane());
    this.laneCapacity = Math.max(1, Math.floor(capacity / this.lanes.length));
  }

  private laneOf(pid: string): Lane {
    return this.lanes[hash(pid) % this.lanes.length];
  }

  /** Whether the lane of `pid` is held by user code running on a code worker (`hold`). */
  isHeld(pid: string): boolean {
    return this.laneOf(pid).held > 0;
  }

  /** Where the jobs of `pid` wait: its lane's fill (full: refusing work), whether user code holds it, and the names of its queued jobs. */
  waitingOf(pid: string): LaneWait {
    const lane = this.laneOf(pid);
    return { ...this.fillOf(lane), full: lane.full, held: lane.held > 0, jobs: lane.jobsOf(pid).map((job) => job.name) };
  }

  /** Whether the jobs of two processes share a lane. */
  sameLane(a: string, b: string): boolean {
    return this.laneOf(a) === this.laneOf(b);
  }

  /** Whether the lane of `pid` can take one more job. */
  hasRoom(pid: string): boolean {
    return !this.closed && this.laneOf(pid).size < this.laneCapacity;
  }

  /**
   * Holds the lane of `pid` (called by a job running in it) until the returned function is called
   * with the continuation, which then runs before the lane's other jobs. While held, the process
   * counts as having a queued job (the continuation). After `close` the continuation is dropped.
   */
  hold(pid: string): (continuation: Job) => void {
    const lane = this.laneOf(pid);
    lane.held++;
    this.holds++;
    this.perPid.set(pid, (this.perPid.get(pid) ?? 0) + 1);
    let released = false;
    return (continuation) => {
      if (released) return;
      released = true;
      if (this.closed) return;
      lane.held--;
      this.holds--;
      lane.released.push(continuation);
      this.depthNow++;
      if (lane.held > 0) return;
      // the last hold is back: the continuations run before the lane's other jobs, in release order
      for (let i = lane.released.length - 1; i >= 0; i--) lane.unshift(lane.released[i]);
      lane.released.length = 0;
      this.schedule();
    };
  }

  /** Queues a job; returns false (and queues nothing) when its lane is full, unless `force`. */
  push(job: Job, force = false): boolean {
    if (this.closed) return false;
    const lane = this.laneOf(job.pid);
    if (!force && lane.size >= this.laneCapacity) {
      if (!lane.full) {
        lane.full = true;
        this.onFill({ full: true, fill: { ...this.fillOf(lane), pid: job.pid } });
      }
      return false;
    }
    lane.push(job);
    this.perPid.set(job.pid, (this.perPid.get(job.pid) ?? 0) + 1);
    this.depthNow++;
    if (this.depthNow > this.high) this.high = this.depthNow;
    this.schedule();
    return true;
  }

  get depth(): number {
    return this.depthNow;
  }

  /** How many jobs of one process are queued. */
  queuedFor(pid: string): number {
    return this.perPid.get(pid) ?? 0;
  }

  private ran(job: Job): void {
    const left = (this.perPid.get(job.pid) ?? 1) - 1;
    if (left > 0) this.perPid.set(job.pid, left);
    else this.perPid.delete(job.pid);
  }

  /** After a pass and the overflow it took back: full lanes at half their capacity or less drained. */
  private reportDrained(): void {
    for (const lane of this.lanes) {
      if (!lane.full || lane.size * 2 > this.laneCapacity) continue;
      lane.full = false;
      this.onFill({ full: false, fill: this.fillOf(lane) });
    }
  }

  private fillOf(lane: Lane): LaneFill {
    return { lane: this.lanes.indexOf(lane), size: lane.size, capacity: this.laneCapacity };
  }

  stats(): LaneStats {
    return {
      workers: this.lanes.length,
      capacity: this.laneCapacity * this.lanes.length,
      laneCapacity: this.laneCapacity,
      depth: this.depthNow,
      highWatermark: this.high,
      lanes: this.lanes.map((l) => l.size),
      held: this.holds,
    };
  }

  /** Whether no job can run now: every lane is empty or held (by work off the thread), and no drain is due. */
  get stalled(): boolean {
    return !this.draining && !this.lanes.some((lane) => !lane.held && lane.size > 0);
  }

  /** Resolves when every lane is empty. */
  idle(): Promise<void> {
    if (this.depthNow === 0 && this.holds === 0 && !this.draining) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const lane of this.lanes) {
      lane.clear();
      lane.full = false;
      lane.held = 0;
      lane.released.length = 0;
    }
    this.perPid.clear();
    this.depthNow = 0;
    this.holds = 0;
    for (const w of this.waiters.splice(0)) w();
  }

  private schedule(): void {
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    let ran = 0;
    let runnable = true;
    while (ran < this.passJobs && runnable && !this.closed) {
      runnable = false;
      for (const lane of this.lanes) {
        if (lane.held) continue;
        const pid = lane.beginTurn();
        if (pid === undefined) continue;
        runnable = true;
        ran += this.runTurn(lane, pid);
      }
    }
    if (ran > 0 && !this.closed) {
      this.onRoom();
      this.reportDrained();
    }
    if (!this.closed && this.lanes.some((lane) => !lane.held && lane.size > 0)) {
      setImmediate(() => this.drain());
      return;
    }
    this.draining = false;
    if (this.depthNow === 0 && this.holds === 0) for (const w of this.waiters.splice(0)) w();
  }

  /**
   * One turn of a process: its jobs back to back, those they queue included, until none is left,
   * TURN ran, or a job handed code to a worker (the lane is held); then `afterTurn`. Returns how
   * many ran.
   */
  private runTurn(lane: Lane, pid: string): number {
    let ran = 0;
    try {
      while (ran < TURN && !lane.held && !this.closed) {
        const job = lane.next(pid);
        if (!job) break;
        this.depthNow--;
        this.ran(job);
        ran++;
        try {
          job.run();
        } catch (err) {
          this.onPanic(job, err);
        }
      }
    } finally {
      lane.endTurn(pid);
      this.afterTurn(pid);
    }
    return ran;
  }
}
