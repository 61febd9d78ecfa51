/**
 * The in-memory job queue of the engine: one FIFO, jobs run one at a time, so jobs of one process
 * never interleave. A job is synchronous engine work (exec a task, apply an action); the queue
 * yields to the event loop between batches so timers and I/O keep running.
 * States: idle (empty, no drain scheduled) → draining → idle. The durable runtime replaces this
 * with hashed lanes, bounds and an outbox.
 */
export interface Job {
  pid: string;
  name: string;
  run(): void;
}

const BATCH = 256;

export class JobQueue {
  private readonly jobs: Job[] = [];
  private head = 0;
  private draining = false;
  private closed = false;
  private waiters: Array<() => void> = [];

  constructor(private readonly onPanic: (job: Job, err: unknown) => void) {}

  push(job: Job): void {
    if (this.closed) return;
    this.jobs.push(job);
    this.schedule();
  }

  get depth(): number {
    return this.jobs.length - this.head;
  }

  /** Resolves when the queue is empty. */
  idle(): Promise<void> {
    if (this.depth === 0 && !this.draining) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.jobs.length = 0;
    this.head = 0;
    for (const w of this.waiters.splice(0)) w();
  }

  private schedule(): void {
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    let n = 0;
    while (this.head < this.jobs.length && n < BATCH && !this.closed) {
      const job = this.jobs[this.head++];
      n++;
      try {
        job.run();
      } catch (err) {
        this.onPanic(job, err);
      }
    }
    if (this.head > 1024 && this.head * 2 > this.jobs.length) {
      this.jobs.splice(0, this.head);
      this.head = 0;
    }
    if (this.head < this.jobs.length && !this.closed) {
      setImmediate(() => this.drain());
      return;
    }
    this.draining = false;
    for (const w of this.waiters.splice(0)) w();
  }
}
