/**
 * The runtime's implementation of the engine's port (server/engine/context.ts): resident
 * processes, task creation and state changes with the rows they dirty, the lanes and the
 * overflow of executions into the outbox, one store batch per job, messages and their deliveries,
 * expression evaluation. The algorithm itself is server/engine's (flow.ts, kinds.ts, actions.ts).
 * (Issue 11 takes this class apart into the runtime's own modules: writer, outbox, residents.)
 *
 * State: `procs` holds every process this engine runs or ran (until removed); each job mutates
 * one process synchronously; dirty tasks are written to the store after each job, in order.
 */
import type { Channel } from './channels.ts';
import { OrderedDispatcher } from './channels.ts';
import type { Clock, IdSource } from '../engine/clock.ts';
import { errorMessage } from '../engine/errors.ts';
import { ExpressionTrials } from '../engine/expr/trials.ts';
import { Lanes, type Job } from './lanes.ts';
import { buildMessage, type Message } from '../engine/messages.ts';
import type { Vars } from '../engine/model/types.ts';
import type { EngineContext, FaultPoint, ParentRef } from '../engine/context.ts';
import { exec } from '../engine/exec.ts';
import { abortChildOf, returnToParent, startChildProcess } from './subflow-routing.ts';
import type { PackageRegistry } from '../engine/packages/registry.ts';
import type { Process } from '../engine/process.ts';
import type { EvalMode, Outcome, Sandbox, ScriptScope } from '../engine/sandbox/types.ts';
import type { CodePool } from '../engine/sandbox/code-pool.ts';
import { stepBudgetError } from '../engine/step-budget.ts';
import { checkValueSize } from '../engine/value-cap.ts';
import { scopeFor, type ScopeServices } from '../engine/scope.ts';
import { isCreatedLike, isTerminal, type TaskState } from '../../vocab/states.ts';
import { Outbox } from './outbox.ts';
import { Residents } from './residents.ts';
import { JobBatch } from './job-batch.ts';
import { Publisher } from './publisher.ts';
import type { ErrorInfo, OpRow, Store } from '../store/contract/types.ts';
import { StoreWriter } from './store-writer.ts';
import { multiInstance } from './relay-records.ts';
import { Task } from '../engine/task.ts';
import type { Node } from '../engine/tree/node.ts';
import { asAct } from '../engine/tree/node.ts';
import type { EngineEvents } from './events.ts';
import type { Logger } from '../engine/logger.ts';
import { Snapshots } from '../engine/snapshots.ts';
import { TypedEmitter } from './events.ts';
import type { CoreConfig } from './engine-types.ts';

/** What Core asks of the engine that owns it (given at construction: runtime/engine.ts). */
export interface CoreLinks {
  startProcess(mid: string, options: Vars, parent: ParentRef | null): Promise<Process>;
  /** A finished process left memory while parked ones wait: fill the free slot. */
  slotFreed(): void;
}

export class Core implements EngineContext {
  /** The processes held in memory (residents.ts). */
  readonly residents: Residents;
  readonly procs: Map<string, Process>;
  readonly channels = new Map<string, Channel>();
  readonly userVars = new Map<string, Vars>([['secrets', {}]]);
  readonly snapshots = new Snapshots();
  readonly events = new TypedEmitter<EngineEvents>();
  readonly queue: Lanes;
  readonly dispatcher: OrderedDispatcher;
  readonly writer: StoreWriter;
  /** Tasks that own timeout rules, checked on every tick. */
  readonly timed = new Set<Task>();
  /** The rows of the running job, written as one batch after it (job-batch.ts). */
  private readonly batch: JobBatch;
  private readonly publisher: Publisher;
  /** Durable records of work not done yet (outbox.ts). */
  readonly outbox: Outbox;
  private readonly scopeServices: ScopeServices;

  /** Throws `data.too_large` when `value` is above `value_cap_bytes`. */
  checkSize(what: string, value: unknown): void {
    checkValueSize(what, value, this.config.valueCapBytes);
  }

  constructor(
    readonly store: Store,
    readonly sandbox: Sandbox,
    readonly registry: PackageRegistry,
    readonly clock: Clock,
    readonly newId: IdSource,
    readonly config: CoreConfig,
    readonly log: Logger,
    /** What the engine around it does for it: start processes (subflow children), fill freed slots. */
    private readonly links: CoreLinks,
    private readonly faults?: (point: FaultPoint) => void,
    /** Threads for code acts (see `offLane`); none: code runs inside its job. */
    readonly codePool?: CodePool,
  ) {
    this.queue = new Lanes(
      config.workers,
      config.queueCap,
      (job, err) => this.onPanic(job, err),
      () => this.drainOverflow(),
      (change) => (change.full ? this.events.emit('laneFull', change.fill) : this.events.emit('laneDrained', change.fill)),
    );
    this.dispatcher = new OrderedDispatcher((err) => this.log.error(`channel handler failed: ${errorMessage(err)}`));
    this.residents = new Residents(this.timed, (lost) => this.events.emit('processesLost', lost), () => links.slotFreed());
    this.procs = this.residents.procs;
    const fence = multiInstance(store) ? { owner: config.instanceId, onLost: (pids: string[]) => this.residents.release(pids, 'fence') } : undefined;
    this.writer = new StoreWriter(store, (err) => this.log.error(`store write failed: ${errorMessage(err)}`), fence);
    this.trials = new ExpressionTrials(sandbox);
    this.outbox = new Outbox(() => this.now(), newId);
    this.batch = new JobBatch(
      this.writer,
      this.outbox,
      config.instanceId,
      (done) => this.events.emit('committed', done),
      // overflow records of the batch are durable now: they may go back into their lanes
      () => this.drainOverflow(),
    );
    this.publisher = new Publisher({ channels: this.channels, dispatcher: this.dispatcher, batch: this.batch, events: this.events, store, writer: this.writer, newId, now: () => this.now() });
    this.scopeServices = {
      userVars: this.userVars,
      checkSize: (what, value) => this.checkSize(what, value),
      touchProcess: (proc) => this.markProcDirty(proc),
      log: (level, message, task) => this.log[level === 'log' ? 'info' : level](`[${task.pid}:${task.tid}] ${message}`),
    };
  }

  now(): number {
    return this.clock.now();
  }

  // ---- jobs ----

  /**
   * Queues work for a process; the store writes it caused go out as one batch after it ran.
   * Engine continuations are forced past the lane bound (see lanes.ts); others may be refused.
   */
  job(pid: string, name: string, run: () => void, force = true): boolean {
    return this.queue.push(this.batched(pid, name, run), force);
  }

  /** A job whose store writes go out as one batch after it ran. */
  private batched(pid: string, name: string, run: () => void): Job {
    return {
      pid,
      name,
      run: () => {
        try {
          run();
        } finally {
          this.flush();
        }
      },
    };
  }

  /**
   * Lets work of a job run off the engine's thread: the job's lane is held (its other jobs wait,
   * as if the work ran inside the job) until `work` settles, then `then` runs first in the lane as
   * a job of the process, with the outcome.
   */
  offLane<T>(pid: string, name: string, work: Promise<T>, then: (outcome: Outcome<T>) => void): void {
    const release = this.queue.hold(pid);
    work.then(
      (value) => release(this.batched(pid, name, () => then({ ok: true, value }))),
      (error: unknown) => release(this.batched(pid, name, () => then({ ok: false, error }))),
    );
  }

  private onPanic(job: Job, err: unknown): void {
    this.log.error(`job ${job.name} of process ${job.pid} panicked: ${errorMessage(err)}`);
  }

  // ---- tasks ----

  createTask(proc: Process, node: Node, prev: Task | null, parent: Task | null, isHook = false): Task {
    const tid = parent === null && prev === null ? '$' : this.newId(8);
    const seq = proc.nextSeq();
    if (seq > this.config.stepBudget) throw stepBudgetError(proc, this.config.stepBudget);
    const task = new Task(proc.pid, tid, node, prev, parent, isHook, seq);
    task.createdInBatch = this.batchSeq;
    if (node.kind === 'act') {
      // Acts inside a block carry the block's options (`$index`, `$value` of a fan-out).
      const inherited = parent?.kind === 'act' && !isHook ? parent.options : {};
      task.options = { ...inherited, ...asAct(node).options };
    }
    this.adopt(proc, task);
    this.markDirty(proc, task);
    return task;
  }

  /** Adds a new task to its process and routes its data writes to the store. */
  adopt(proc: Process, task: Task): void {
    this.wire(proc, task);
    proc.add(task);
  }

  /** Routes the data writes of a process rebuilt from the store to the store again. */
  wireRestored(proc: Process): void {
    for (const task of proc.tasks.values()) this.wire(proc, task);
  }

  private wire(proc: Process, task: Task): void {
    task.touch = () => this.markDirty(proc, task);
  }

  /** Subflow acts whose child process is being started (its start has not settled yet). */
  readonly startingChildren = new Set<Task>();

  /** Asynchronous engine work in flight outside the lanes (subflow starts), awaited by `idle`. */
  readonly inFlight = new Set<Promise<unknown>>();

  /** Tracks a promise of engine work until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = () => this.inFlight.delete(work);
    work.then(done, done);
    return work;
  }

  /**
   * Queues the execution of a task (init → run → proceed). When its lane is full the execution
   * is recorded in the outbox instead (an `exec` record, written with the current batch) and
   * handed back as soon as the lane has room (`drainOverflow`); the tick replays records this
   * engine no longer holds in memory (spec 5.4).
   */
  schedule(proc: Process, task: Task, op?: OpRow): boolean {
    // hook work of a finished process: no longer loaded after a restart, so the outbox holds it
    if (!op && proc.finished && task.inHook) this.recordExec(proc, task);
    const accepted = this.job(
      proc.pid,
      `exec ${task.tid}`,
      () => {
        this.outbox.executionStarts(proc, task, op);
        exec(this, proc, task);
      },
      false,
    );
    if (!accepted && !op) this.outbox.refuse(proc, task, this.batchSeq + 1);
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
      if (!gone && !this.queue.hasRoom(proc.pid)) continue;
      if (!gone) this.fault('overflow:replay');
      refused.delete(id);
      wrote = true;
      if (gone) this.outbox.close(op);
      else this.schedule(proc, task, this.outbox.dispatch(op));
    }
    if (wrote) void this.flush();
  }

  setState(proc: Process, task: Task, state: TaskState): void {
    const now = this.now();
    if (isCreatedLike(state)) task.startTime = now;
    if (isTerminal(state)) task.endTime = now;
    if (state !== 'error') task.err = null;
    if (task.state === 'interrupted' && state !== 'interrupted') this.batch.leftInbox(task);
    task.state = state;
    this.outbox.taskState(task, state);
    if (task.tid === '$') {
      if (state === 'ready' || state === 'running') proc.state = 'running';
      if (proc.startTime === 0) proc.startTime = now;
    }
    this.markDirty(proc, task);
  }

  setError(proc: Process, task: Task, err: ErrorInfo): void {
    this.setState(proc, task, 'error');
    task.err = err;
  }

  markDirty(proc: Process, task: Task): void {
    this.batch.markDirty(proc, task);
  }

  markProcDirty(proc: Process): void {
    this.batch.markProcDirty(proc);
  }

  /** Writes everything the job changed as one ordered store batch (job-batch.ts). */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  /**
   * The number of the latest job batch (`flush` call). Events emitted by a job are followed by its
   * batch, `batchSeq + 1` while the job runs; `committed` says when it is in the store.
   */
  get batchSeq(): number {
    return this.batch.seq;
  }

  // ---- expressions ----

  evaluate(proc: Process, task: Task, source: string, mode: EvalMode = 'script'): unknown {
    return this.trials.evaluate(task, source, this.scopeOf(proc, task), mode);
  }

  /** Windows of expression work that may move to the code workers (see expr/trials.ts). */
  readonly trials: ExpressionTrials;

  /** The scope an expression of the task sees. */
  scopeOf(proc: Process, task: Task): ScriptScope {
    return scopeFor(proc, task, this.scopeServices);
  }

  evaluator(proc: Process, task: Task): (source: string) => unknown {
    return (source) => this.evaluate(proc, task, source);
  }

  // ---- messages ----

  taskChanged(proc: Process, task: Task): void {
    this.markDirty(proc, task);
    this.events.emit('task', { proc, task });
  }

  publish(message: Message): void {
    this.publisher.publish(message);
  }

  /** Process-level events: `started` / `finished`, then channels' `on_start`, `on_complete`, `on_error`. */
  publishProcessEvent(proc: Process, kind: 'start' | 'complete' | 'error', message: Message): void {
    this.publisher.processEvent(proc, kind, message);
  }

  /** Test-only fault injection: named points where a test host may kill the process. */
  fault(point: FaultPoint): void {
    this.faults?.(point);
  }

  settleDeliveries(pid: string, tid: string): void {
    this.publisher.settleDeliveries(pid, tid);
  }

  // ---- the port's effects on other processes (subflow-routing.ts) ----

  startChild(proc: Process, task: Task, mid: string, options: Vars): void {
    startChildProcess(this, proc, task, mid, options);
  }

  toParent(child: Process): void {
    returnToParent(this, child);
  }

  abortChild(task: Task): void {
    abortChildOf(this, task);
  }

  ended(proc: Process): void {
    this.residents.evict(proc);
  }

  watchTimeouts(task: Task): void {
    this.timed.add(task);
  }

  /** Starts a process (the engine's `Starter`): a subflow's child. */
  startProcess(mid: string, options: Vars, parent: ParentRef | null): Promise<Process> {
    return this.links.startProcess(mid, options, parent);
  }

  /** The root became ready: the process runs (`on_start`). */
  processStarted(proc: Process): void {
    const root = proc.root;
    if (!root) return;
    proc.state = 'running';
    this.markProcDirty(proc);
    this.publishProcessEvent(proc, 'start', buildMessage(proc, root, this.newId(16), {}, this.now()));
  }
}
