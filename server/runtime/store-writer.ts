/**
 * Ordered write-behind queue in front of the store. Entries are written one after another in the
 * order they were queued, so a later state never lands before an earlier one. Consecutive batch
 * parts (the writes of one job each) are merged into ONE store transaction when several are
 * waiting — the writer's throughput then grows with load instead of paying a commit per job.
 *
 * When several instances share the store (a `fence` is set), every transaction of parts first
 * fences the processes its parts name (Store.fenceProcesses; a part leaves out a process whose
 * rows it writes for the first time under a pid the engine generated, which no other instance
 * can own: job-batch.ts): the parts of a process another instance
 * took over are skipped — they fail with `process.elsewhere` and `onLost` hears the pids — so an
 * instance that lost its lease while alive can never overwrite the new owner's rows. The same
 * fence refuses a part that starts a process under a pid that is stored already (`fresh`, failing
 * with `process.duplicate_pid`), so a start with a pid its caller chose need not read first.
 *
 * States: idle → writing (one standalone write, or transactions of merged parts) → idle. With a
 * store that commits batches in the order they were handed over (`pipeline` > 1, SQLite's write
 * thread, PostgreSQL's pipelined connection), up to `pipeline` transactions are under way at
 * once, so the order above still holds: the next is handed over once the one before is on its way
 * in the store, and a fenced one — which may be written again — only once it settled; a
 * standalone write waits until every one before it settled. `flush()` resolves once everything
 * queued before it is written. With a store that gathers writes ahead (Store.gatherWrites:
 * PostgreSQL), each part's writes are gathered as it is queued — while the transaction before it
 * is still being written — so taking parts into a transaction only encodes and sends them.
 *
 * Saturation bound (spec 5.1, 5.14), beside those states: open → saturated when the depth
 * (entries queued or being written) reaches `cap` → open again once it drained to `cap / 2`.
 * While saturated, `admit()` refuses new work at the entry points (starts, client actions) with a
 * retryable `engine.busy`; writes of jobs already running are always queued — refusing them would
 * lose state — so the depth may pass the cap. `limit()` sets the cap and who hears the changes.
 */
import { ActError } from '../engine/errors.ts';
import type { GatheredWrites, Store, WriteGuard } from '../store/contract/types.ts';
import { guardedBatch } from '../store/contract/guarded-batch.ts';

type Settle = (err?: unknown) => void;

/** A settle function over a promise's resolve and reject (returned, so the build does not name one per write). */
function settleWith(resolve: () => void, reject: (err: unknown) => void): Settle {
  return (err) => (err === undefined ? resolve() : reject(err));
}

/** Why a fenced transaction dropped `part`: a process another instance took over, or a start under a pid already stored. */
function refusalOf(part: PartEntry, lost: ReadonlySet<string>, duplicates: ReadonlySet<string>): ActError | undefined {
  for (const pid of part.pids) {
    if (lost.has(pid)) return new ActError('process.elsewhere', `process '${pid}' was taken over by another engine instance; this write was dropped`);
    if (duplicates.has(pid)) return new ActError('process.duplicate_pid', `proc_id(${pid}) is duplicated: a process with this pid is stored`);
  }
  return undefined;
}

/** One transaction's work: the parts' writes, one after another. */
function runAll(parts: readonly PartEntry[]): (tx: Store) => Promise<void> {
  return async (tx) => {
    for (const part of parts) await part.run(tx);
  };
}

type PartEntry = {
  kind: 'part';
  run: (tx: Store) => Promise<void>;
  pids: readonly string[];
  fresh: readonly string[];
  settle: Settle;
  /** Its writes gathered as it was queued (Store.gatherWrites), when the store does that. */
  gathered: Promise<GatheredWrites | undefined> | undefined;
};

/** The gathered writes of every one of `parts`, or undefined when one of them has none. */
async function gatheredOf(parts: readonly PartEntry[]): Promise<GatheredWrites[] | undefined> {
  const gathered = await Promise.all(parts.map((part) => part.gathered));
  return gathered.every((writes) => writes !== undefined) ? (gathered as GatheredWrites[]) : undefined;
}
type OpEntry = { kind: 'op'; run: () => Promise<unknown>; settle: Settle };
type Entry = OpEntry | PartEntry;

export interface WriteFence {
  /** The instance that must own every process a part writes. */
  owner: string;
  /** Processes found owned by another instance (their parts were not written). */
  onLost(pids: string[]): void;
}

/** Most job batches merged into one transaction. */
const MAX_MERGED = 128;

/** Default bound of the writes waiting in the writer (`store_writer_cap`). */
export const DEFAULT_STORE_WRITER_CAP = 10_000;

/** The writer's saturation: whether it refuses new work, at which depth, under which cap. */
export interface WriterSaturation {
  saturated: boolean;
  depth: number;
  cap: number;
}

export class StoreWriter {
  private readonly queue: Entry[] = [];
  private writing = false;
  /** Entries taken off the queue whose write has not settled yet. */
  private inFlight = 0;
  private highWatermark = 0;
  /** Wakes a pump that waits for an entry to hand over beside the transactions in flight. */
  private arrived: (() => void) | undefined;
  private capValue = DEFAULT_STORE_WRITER_CAP;
  private saturatedNow = false;
  private onSaturation: (state: WriterSaturation) => void = () => {};
  private idleWaiters: Array<() => void> = [];
  /** The store's Store.gatherWrites and Store.writeGathered, when it has both. */
  private readonly gathering: Pick<Required<Store>, 'gatherWrites' | 'writeGathered'> | undefined;
  /** Transactions written and the job batches they carried (for metrics). */
  transactions = 0;
  parts = 0;

  constructor(
    private readonly store: Store,
    private readonly onError: (err: unknown) => void,
    private readonly fence?: WriteFence,
    /**
     * Transactions handed to the store before the oldest settled (Store.pipelinedWrites: the store
     * commits them in the order they were handed over); 1 without a store that does. A fenced
     * transaction is handed over alone (writeParts).
     */
    private readonly pipeline = 1,
  ) {
    const { gatherWrites, writeGathered } = store;
    this.gathering = gatherWrites && writeGathered ? { gatherWrites, writeGathered } : undefined;
  }

  /** Queues a standalone write; the promise settles with its result (callers may ignore it). */
  write(op: () => Promise<unknown>): Promise<void> {
    return this.enqueue((settle) => ({ kind: 'op', run: op, settle }));
  }

  /**
   * Queues the writes of one job; written in one transaction, possibly with its neighbours. The
   * promise resolves once that transaction committed and rejects when it failed. `pids`: the
   * processes it writes (fenced); `fresh`: of them, processes it starts under a pid their caller
   * chose — when one is stored already the part is not written and fails with
   * `process.duplicate_pid` (with a fence only: `checksFreshPids`).
   */
  writeBatch(part: (tx: Store) => Promise<void>, pids: readonly string[] = [], fresh: readonly string[] = []): Promise<void> {
    return this.enqueue((settle) => ({ kind: 'part', run: part, pids, fresh, settle, gathered: this.gathering?.gatherWrites(part) }));
  }

  /** Whether transactions are handed to a store that writes them elsewhere (its write thread) while this one goes on (`pipeline` > 1). */
  get pipelined(): boolean {
    return this.pipeline > 1;
  }

  /** Whether the writes check that the processes a part starts are new (`fresh`), so a start need not look its pid up first. */
  get checksFreshPids(): boolean {
    return this.fence !== undefined;
  }

  /** Sets the saturation bound (a positive integer) and the listener of its changes. */
  limit(cap: number, onChange: (state: WriterSaturation) => void = () => {}): void {
    if (!Number.isSafeInteger(cap) || cap < 1) throw new ActError('config.invalid', `store_writer_cap must be a positive integer, got ${String(cap)}`);
    this.capValue = cap;
    this.onSaturation = onChange;
  }

  /**
   * Refuses new work while the writer is saturated (`engine.busy`, retryable). Entry points of new
   * work call it; writes of work already accepted never do.
   */
  admit(): void {
    if (!this.saturatedNow) return;
    const { depth, capValue: cap } = this;
    throw new ActError('engine.busy', `the store writer is saturated (${depth} writes waiting, cap ${cap}); retry shortly`, {
      reason: 'store_writer_saturated',
      depth,
      cap,
      retryable: true,
    });
  }

  private enqueue(make: (settle: Settle) => Entry): Promise<void> {
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const result = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const settle = settleWith(resolve, reject);
    // A caller that does not wait for the result must not turn a failed write into a crash.
    result.catch(() => undefined);
    this.queue.push(make(settle));
    this.arrived?.();
    this.highWatermark = Math.max(this.highWatermark, this.depth);
    if (!this.saturatedNow && this.depth >= this.capValue) this.saturate(true);
    if (!this.writing) void this.pump();
    return result;
  }

  private async pump(): Promise<void> {
    this.writing = true;
    // transactions handed to the store and not settled yet, oldest first (at most `pipeline`)
    const handedOver: Array<Promise<void>> = [];
    // the last one handed over, until it is on its way in the store (see writeParts)
    let onItsWay: Promise<void> | undefined;
    while (this.queue.length > 0 || handedOver.length > 0) {
      if (onItsWay) {
        await onItsWay;
        onItsWay = undefined;
        continue;
      }
      const head = this.queue[0];
      // a standalone write waits for every transaction before it; a full pipeline for its oldest;
      // with room in the pipeline, nothing to write waits for the oldest or for a new entry
      if (head === undefined || head.kind === 'op' || handedOver.length >= this.pipeline) {
        if (handedOver.length > 0) {
          const oldest = handedOver[0];
          const settled = await (head === undefined && handedOver.length < this.pipeline ? Promise.race([oldest.then(() => true), this.arrival()]) : oldest.then(() => true));
          if (settled) handedOver.shift();
          continue;
        }
        // nothing in flight: the head is a standalone write (a part would have been handed over)
        const op = this.queue.shift() as OpEntry;
        this.inFlight = 1;
        try {
          await op.run();
          op.settle();
        } catch (err) {
          this.onError(err);
          op.settle(err ?? new Error('store write failed'));
        }
        this.written(1);
        continue;
      }
      let n = 0;
      while (n < this.queue.length && n < MAX_MERGED && this.queue[n].kind === 'part') n++;
      const parts = this.queue.splice(0, n) as PartEntry[];
      this.inFlight += parts.length;
      const { settled, sent } = this.writeAndSettle(parts);
      handedOver.push(settled);
      onItsWay = sent;
    }
    this.writing = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves (false) when the next entry is queued. */
  private arrival(): Promise<false> {
    return new Promise((resolve) => {
      this.arrived = () => {
        this.arrived = undefined;
        resolve(false);
      };
    });
  }

  /**
   * Writes `parts` as one transaction and settles each of them (`settled` never rejects). `sent`:
   * undefined once the transaction is on its way in the store — the next may be handed over
   * behind it — else resolves when it is (at the latest when it settled).
   */
  private writeAndSettle(parts: PartEntry[]): { settled: Promise<void>; sent: Promise<void> | undefined } {
    let sentAlready = false;
    let resolveSent!: () => void;
    const sent = new Promise<void>((resolve) => (resolveSent = resolve));
    const isSent = (): void => {
      sentAlready = true;
      resolveSent();
    };
    const settled = this.settleParts(parts, isSent).finally(isSent);
    return { settled, sent: sentAlready ? undefined : sent };
  }

  private async settleParts(parts: PartEntry[], isSent: () => void): Promise<void> {
    try {
      const { lost, duplicates } = await this.writeParts(parts, isSent);
      this.transactions++;
      this.parts += parts.length;
      for (const part of parts) part.settle(refusalOf(part, lost, duplicates));
      if (lost.size > 0) this.fence?.onLost([...lost]);
    } catch (err) {
      this.onError(err);
      for (const part of parts) part.settle(err ?? new Error('store write failed'));
    }
    this.written(parts.length);
  }

  /** `entries` in flight settled: the saturation ends once the depth drained to half the cap. */
  private written(entries: number): void {
    this.inFlight -= entries;
    if (this.saturatedNow && this.depth <= Math.floor(this.capValue / 2)) this.saturate(false);
  }

  private saturate(on: boolean): void {
    this.saturatedNow = on;
    this.onSaturation({ saturated: on, depth: this.depth, cap: this.capValue });
  }

  /**
   * Writes `parts` in one transaction, fenced when a fence is set: the result is the pids another
   * instance owns now, and the fresh pids found stored already. A fenced batch that found such
   * pids wrote nothing, so it is written again without the parts of those processes.
   *
   * `isSent` is called once the transaction is on its way in the store, behind the ones handed
   * over before it, so the next may follow (`pipeline` > 1): at once for a batch the store takes
   * in the order of the calls — an unfenced one, gathered ahead or on a store without gathering —
   * but only when it settled for a fenced one (it may be written again, and nothing may commit
   * between) or one that needs a transaction of its own.
   */
  private async writeParts(parts: PartEntry[], isSent: () => void): Promise<{ lost: Set<string>; duplicates: Set<string> }> {
    const lost = new Set<string>();
    const duplicates = new Set<string>();
    const store = this.store;
    let left = parts;
    while (left.length > 0) {
      const run = runAll(left);
      const guard = this.guardOf(left);
      const gathering = this.gathering;
      const gathered = gathering ? await gatheredOf(left) : undefined;
      const writing = gathering && gathered ? gathering.writeGathered(gathered, guard) : store.writeOnlyBatch ? store.writeOnlyBatch(run, guard) : guardedBatch(store, run, guard);
      if (!guard && (gathered || !gathering)) isSent();
      const found = await writing;
      if (found.length === 0) break;
      const fresh = new Set(guard?.fresh);
      for (const pid of found) (fresh.has(pid) ? duplicates : lost).add(pid);
      const rest = left.filter((part) => refusalOf(part, lost, duplicates) === undefined);
      if (rest.length === left.length) throw new ActError('internal', `the write fence reported processes the batch does not write: ${found.join(', ')}`);
      left = rest;
    }
    return { lost, duplicates };
  }

  /** The fence of a batch of `parts`: every process they write and the ones they start (none without a fence). */
  private guardOf(parts: PartEntry[]): WriteGuard | undefined {
    if (!this.fence) return undefined;
    const pids = new Set<string>();
    const fresh: string[] = [];
    for (const part of parts) {
      for (const pid of part.pids) pids.add(pid);
      fresh.push(...part.fresh);
    }
    return pids.size > 0 ? { owner: this.fence.owner, pids: [...pids], fresh } : undefined;
  }

  /** Entries queued or being written. */
  get depth(): number {
    return this.queue.length + this.inFlight;
  }

  get cap(): number {
    return this.capValue;
  }

  /** Whether new work is refused (see the header). */
  get saturated(): boolean {
    return this.saturatedNow;
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
