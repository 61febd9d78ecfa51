/**
 * Ordered write-behind queue in front of the store. Entries are written one after another in the
 * order they were queued, so a later state never lands before an earlier one. Consecutive batch
 * parts (the writes of one job each) are merged into ONE store transaction when several are
 * waiting — the writer's throughput then grows with load instead of paying a commit per job.
 *
 * States: idle → writing (one standalone write, or one transaction of merged parts) → idle.
 * `flush()` resolves once everything queued before it is written.
 */
import type { Store } from './store/types.ts';

type Entry =
  | { kind: 'op'; run: () => Promise<unknown>; done: () => void }
  | { kind: 'part'; run: (tx: Store) => Promise<void>; done: () => void };

/** Most job batches merged into one transaction. */
const MAX_MERGED = 128;

export class StoreWriter {
  private readonly queue: Entry[] = [];
  private writing = false;
  private highWatermark = 0;
  private idleWaiters: Array<() => void> = [];
  /** Transactions written and the job batches they carried (for metrics). */
  transactions = 0;
  parts = 0;

  constructor(
    private readonly store: Store,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Queues a standalone write. */
  write(op: () => Promise<unknown>): void {
    this.enqueue({ kind: 'op', run: op, done: () => {} });
  }

  /** Queues the writes of one job; written in one transaction, possibly with its neighbours. */
  writeBatch(part: (tx: Store) => Promise<void>): void {
    this.enqueue({ kind: 'part', run: part, done: () => {} });
  }

  private enqueue(entry: Entry): void {
    this.queue.push(entry);
    this.highWatermark = Math.max(this.highWatermark, this.queue.length);
    if (!this.writing) void this.pump();
  }

  private async pump(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head.kind === 'op') {
        this.queue.shift();
        try {
          await head.run();
        } catch (err) {
          this.onError(err);
        }
        continue;
      }
      let n = 0;
      while (n < this.queue.length && n < MAX_MERGED && this.queue[n].kind === 'part') n++;
      const parts = this.queue.splice(0, n) as Array<Extract<Entry, { kind: 'part' }>>;
      try {
        await this.store.batch(async (tx) => {
          for (const part of parts) await part.run(tx);
        });
        this.transactions++;
        this.parts += parts.length;
      } catch (err) {
        this.onError(err);
      }
    }
    this.writing = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  get depth(): number {
    return this.queue.length + (this.writing ? 1 : 0);
  }

  get highWater(): number {
    return this.highWatermark;
  }

  /** Resolves once everything queued so far is written. */
  flush(): Promise<void> {
    if (!this.writing && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
