/**
 * One store batch per turn (the jobs of one process run back to back, lanes.ts): everything its
 * jobs changed — process and task rows, new messages and their deliveries, the inbox rows of tasks
 * that began or stopped waiting (inbox-rows.ts), outbox records — goes out as one ordered
 * transaction after the turn, each row as the turn left it, so a crash leaves either all of a
 * turn's effects or none: always a state between two jobs.
 *
 * A process row goes out only when it differs from the one its process last handed to the writer:
 * every task change dirties its process (the row's state follows the tasks'), but most jobs leave
 * the row as it was, and it carries the whole model source. A batch that fails forgets every row
 * handed out (`generation`), so each process writes its row again with its next job.
 *
 * A process started here under a pid the engine generated (`markNewPid`) writes its first batch
 * unfenced: no other instance can own a process whose rows were never written, so its pid stays
 * out of the write fence's list until that batch is handed over (after that, whatever became of
 * the batch, it is fenced like any other). A batch of new processes only skips the fence's locking
 * read — on PostgreSQL 10-15 % of a start's round trip.
 *
 * A process started from outside writes its first rows with its first turn (`awaitFirstTurn`):
 * the start is reported once that batch is in the store, so a start costs no batch of its own, its
 * process and root rows go out once, and a caller that starts faster than the lanes run waits.
 * A lane held by user code on a code worker lets the processes waiting in it go (`releaseWhere`):
 * a start never waits for user code.
 *
 * State: the rows the running turn dirtied and the tasks that left `interrupted` in it (cleared by
 * `flush`, except the rows of processes awaiting their first turn, which stay dirty until that
 * turn — or `release` — lets them go); the processes started here whose rows were never handed
 * out (`unwritten`); the start waiting for a process's rows to be written, by
 * process; the process rows last handed out, by process and generation; `seq`, the number of the latest
 * batch (`flush` call: events emitted by a job are followed by batch `seq + 1`); `committedSeq`,
 * the latest batch whose write settled; the chain of commits, so `committed` events come in order.
 */
import type { Process } from '../engine/process.ts';
import type { DeliveryRow, MessageRow, ProcRow, Store, TaskRow } from '../store/contract/types.ts';
import type { Task } from '../engine/task.ts';
import { inboxChanges } from './inbox-rows.ts';
import type { Outbox } from './outbox.ts';
import { notifyRelays } from './relay-records.ts';
import { procRow, sameProcRow, taskRow } from './rows.ts';
import { storedMessages } from './stored-messages.ts';
import type { StoreWriter } from './store-writer.ts';

export interface BatchCommitted {
  seq: number;
  pids: string[];
  ok: boolean;
}

type Waiter = { resolve: () => void; reject: (err: unknown) => void };

export class JobBatch {
  private readonly dirty = new Map<Task, Process>();
  private readonly dirtyProcs = new Set<Process>();
  private readonly messages: MessageRow[] = [];
  private readonly deliveries: DeliveryRow[] = [];
  /** Processes the next batch starts under a pid their caller chose (StoreWriter.writeBatch's `fresh`). */
  private fresh: string[] = [];
  /** Tasks that left `interrupted` in the running turn: their inbox rows go with its batch. */
  private readonly leftInterrupted = new Set<Task>();
  private readonly reoffered = new Map<Task, string>();
  /** Processes started here under a generated pid whose rows were never handed to the writer (markNewPid). */
  private readonly unwritten = new WeakSet<Process>();
  /** The process rows last handed to the writer, valid while their generation is current. */
  private readonly handedOut = new WeakMap<Process, { generation: number; row: ProcRow }>();
  private generation = 0;
  seq = 0;
  committedSeq = 0;
  private lastCommit: Promise<void> = Promise.resolve();
  /** Callers waiting for the next batch (nextFlush). */
  private flushWaiters: Waiter[] = [];
  /** Started processes whose rows wait for their first turn, by pid. */
  private readonly awaitingTurn = new Map<string, Process>();
  /** The start waiting until a batch holding its process's rows is written (awaitFirstTurn). */
  private readonly rowWaiters = new Map<Process, Waiter>();

  constructor(
    private readonly writer: StoreWriter,
    private readonly outbox: Outbox,
    private readonly instanceId: string,
    /** Told each batch's end, in order (after a failure too). */
    private readonly committed: (batch: BatchCommitted) => void,
    /** Told after each batch that wrote something settled. */
    private readonly written: () => void,
    /** Whether a package is external (its acts wait for a remote worker, not in the inbox). */
    private readonly isExternal: (uses: string) => boolean = () => false,
  ) {}

  markDirty(proc: Process, task: Task): void {
    this.dirty.set(task, proc);
    this.dirtyProcs.add(proc);
  }

  markProcDirty(proc: Process): void {
    this.dirtyProcs.add(proc);
  }

  /** The next batch starts `proc` under a pid its caller chose: the write refuses it when that pid is stored. */
  markFresh(proc: Process): void {
    this.fresh.push(proc.pid);
  }

  /**
   * `proc` was started here under a pid this engine generated: its first batch needs no write
   * fence (see the module's comment).
   */
  markNewPid(proc: Process): void {
    this.unwritten.add(proc);
  }

  /**
   * Keeps the rows `proc` dirtied out of every batch until its first turn ended (`turnEnded`),
   * then they go out with that turn's batch. Resolves once a batch holding them is written;
   * rejects when that batch failed.
   */
  awaitFirstTurn(proc: Process): Promise<void> {
    this.awaitingTurn.set(proc.pid, proc);
    return new Promise((resolve, reject) => void this.rowWaiters.set(proc, { resolve, reject }));
  }

  /** The turn of `pid` ended (lanes.ts): a process awaiting its first turn lets its rows go; then the turn's batch goes out. */
  turnEnded(pid: string): Promise<void> {
    if (this.awaitingTurn.size > 0) this.awaitingTurn.delete(pid);
    return this.flush();
  }

  /** Lets every process awaiting its first turn write its rows with the next batch (its turn will not come: a refused execution, a closing engine). */
  release(proc?: Process): void {
    if (proc) this.awaitingTurn.delete(proc.pid);
    else this.awaitingTurn.clear();
  }

  /** Lets the processes awaiting their first turn whose pid passes `test` write their rows with the next batch (their lane is held by user code). */
  releaseWhere(test: (pid: string) => boolean): void {
    for (const pid of this.awaitingTurn.keys()) if (test(pid)) this.awaitingTurn.delete(pid);
  }

  leftInbox(task: Task): void {
    this.leftInterrupted.add(task);
  }

  /** An open interrupt's inbox rows are rebuilt from its params (an escalation changed them). */
  reoffer(proc: Process, task: Task): void {
    this.reoffered.set(task, proc.mid);
  }

  addMessage(row: MessageRow): void {
    this.messages.push(row);
  }

  addDelivery(row: DeliveryRow): void {
    this.deliveries.push(row);
  }

  /** Writes what the turn changed as one batch; resolves when it is in the store. */
  flush(): Promise<void> {
    const seq = ++this.seq;
    const waiters = this.flushWaiters.splice(0);
    if (this.dirty.size === 0 && this.dirtyProcs.size === 0 && this.messages.length === 0 && !this.outbox.hasWrites()) return this.nothingToWrite(seq, waiters);
    const held = this.awaitingTurn.size > 0;
    const pids = new Set<string>();
    const tasks: TaskRow[] = [];
    for (const [task, proc] of this.dirty) {
      if (held && this.awaitingTurn.get(proc.pid) === proc) continue;
      tasks.push(taskRow(proc, task));
      pids.add(proc.pid);
      this.dirty.delete(task);
    }
    const firstWrites = new Set<string>();
    const procs = this.changedProcRows(held, pids, firstWrites);
    if (pids.size === 0 && this.messages.length === 0 && !this.outbox.hasWrites()) return this.nothingToWrite(seq, waiters);
    // task states by row id, made only for a batch that holds an act's `created` message
    let states: Map<string, string> | undefined;
    const messages = this.messages.splice(0);
    const deliveries = this.deliveries.splice(0);
    const inbox = inboxChanges(messages, (pid, tid) => (states ??= new Map(tasks.map((t) => [t.id, t.state]))).get(`${pid}:${tid}`), [...this.leftInterrupted], this.isExternal, [...this.reoffered].map(([task, mid]) => ({ task, mid })));
    this.leftInterrupted.clear();
    this.reoffered.clear();
    const stored = storedMessages(messages, deliveries);
    const ops = this.outbox.take();
    const fresh = this.fresh;
    this.fresh = [];
    const committed = this.writer.writeBatch(async (tx: Store) => {
      for (const row of procs) await tx.procs.upsert(row);
      for (const row of tasks) await tx.tasks.upsert(row);
      // new rows under fresh ids (the ones worth keeping: stored-messages.ts): upserts, so the SQL stores write each table in one statement
      for (const row of stored) await tx.messages.upsert(row);
      for (const row of deliveries) await tx.deliveries.upsert(row);
      if (inbox.left.length > 0) await tx.queries.deleteInboxOf(inbox.left);
      for (const row of inbox.rows) await tx.inbox.upsert(row);
      for (const row of ops) await tx.ops.upsert(row);
      await notifyRelays(tx, ops);
    }, firstWrites.size === 0 ? [...pids] : [...pids].filter((pid) => !firstWrites.has(pid)), fresh);
    this.lastCommit = committed.then(
      () => this.settled(seq, pids, true),
      () => this.settled(seq, pids, false),
    );
    for (const waiter of waiters) committed.then(waiter.resolve, waiter.reject);
    if (this.rowWaiters.size > 0) this.settleRowWaiters(pids, committed);
    return committed;
  }

  /** A batch with nothing to write: "committed" once the batches queued before it are. */
  private nothingToWrite(seq: number, waiters: Waiter[]): Promise<void> {
    const done = () => {
      this.committed({ seq, pids: [], ok: true });
      for (const waiter of waiters) waiter.resolve();
    };
    this.lastCommit = this.lastCommit.then(done, done);
    return Promise.resolve();
  }

  /** Starts waiting for the rows of a process in `pids` hear how `committed` went. */
  private settleRowWaiters(pids: ReadonlySet<string>, committed: Promise<void>): void {
    for (const [proc, waiter] of this.rowWaiters) {
      if (!pids.has(proc.pid)) continue;
      this.rowWaiters.delete(proc);
      committed.then(waiter.resolve, waiter.reject);
    }
  }

  /** Batch `seq` was written (`ok`) or failed: every process writes its row again after a failure. */
  private settled(seq: number, pids: Set<string>, ok: boolean): void {
    if (!ok) this.generation++;
    this.committedSeq = seq;
    this.committed({ seq, pids: [...pids], ok });
    this.written();
  }

  /**
   * Settles with the next batch — the one of the running turn, which carries the effects of the
   * job that asks and of the jobs after it in the turn: resolves once it is written, rejects when
   * its write failed. A job whose caller must hear of its effects only once they are durable (a
   * client action) waits for it rather than writing a batch of its own in the middle of its turn.
   */
  nextFlush(): Promise<void> {
    return new Promise((resolve, reject) => this.flushWaiters.push({ resolve, reject }));
  }

  /**
   * The rows of the dirty processes that differ from the ones last handed out; every dirty
   * process's pid goes into `pids`, and the pid of one whose rows go out for the first time
   * (markNewPid) into `firstWrites` too (`held`: some await their first turn and stay dirty).
   */
  private changedProcRows(held: boolean, pids: Set<string>, firstWrites: Set<string>): ProcRow[] {
    const rows: ProcRow[] = [];
    for (const proc of this.dirtyProcs) {
      if (held && this.awaitingTurn.get(proc.pid) === proc) continue;
      this.dirtyProcs.delete(proc);
      pids.add(proc.pid);
      if (this.unwritten.delete(proc)) firstWrites.add(proc.pid);
      const row = procRow(proc, this.instanceId);
      const last = this.handedOut.get(proc);
      if (last && last.generation === this.generation && sameProcRow(last.row, row)) continue;
      this.handedOut.set(proc, { generation: this.generation, row });
      rows.push(row);
    }
    return rows;
  }
}
