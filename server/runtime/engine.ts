/**
 * The public, promise-based engine API (spec 3.7). One `Engine` owns a store, a sandbox, the
 * package registry and the job queue. States: running → closed (after `close()` every call fails
 * with `engine.closed`).
 */
import { ActionIntake, type ActionRequest } from './action-intake.ts';
import { messagesApi, type MessagesApi } from './messages-api.ts';
import { Channel, type ChannelOptions } from './channels.ts';
import { WorkerJobs } from './worker-jobs.ts';
import { createRuntime } from './runtime.ts';
import type { Runtime } from './runtime-types.ts';
import { ProcessReader } from './process-reader.ts';
import { ReadModel } from './read-model.ts';
import { Insights } from './insights.ts';
import { AnswerFiles } from './answer-files.ts';
import { modelsApi, packagesApi, publishPackages, triggersApi, type ModelsApi, type PackagesApi, type TriggersApi } from './engine-catalog.ts';
import type { EngineOptions, StartContext, StartedProc, TickReport } from './engine-types.ts';
import { engineParts, type EngineParts } from './engine-parts.ts';
import { ActError, errorMessage } from '../engine/errors.ts';
import type { EngineEvents } from './events.ts';
import { procDetail, procInfo, procSummary, taskInfo, type ProcDetail, type ProcInfo, type ProcSummary, type TaskInfo } from './info.ts';
import type { Vars } from '../engine/model/types.ts';
import type { ParentRef } from '../engine/context.ts';
import { Models } from './models.ts';
import { Starter } from './start.ts';
import { rerunInputs } from '../engine/control.ts';
import { StartKeys } from './start-keys.ts';
import type { InstanceRow, OpRow, PageData, ProcRow, Query, Store } from '../store/contract/types.ts';
import { nextTimeoutAt } from './timers.ts';
import { logEvents } from './event-log.ts';
import { recoverProcesses, type RecoverReport } from './recover.ts';
import { BootRecovery } from './boot-recovery.ts';
import { SlotFills } from './fills.ts';
import { Ticker } from './ticker.ts';
import { ScheduleTimer } from './schedule-timer.ts';
import { InstanceLease } from './instances.ts';
import { multiInstance } from './relay-records.ts';
import { Relay } from './relay.ts';
import type { SnapshotOptions } from '../engine/snapshots.ts';
import type { StuckProcess } from './liveness.ts';
import { findStuck } from './stuck-check.ts';
import { StuckDetector } from './stuck-detector.ts';
import { DEFAULT_STORE_WRITER_CAP } from './store-writer.ts';
import { boundWriter, engineHealth, engineStats, type EngineHealth, type EngineStats } from './engine-health.ts';
import { isVarsObject } from '../engine/vars.ts';
import { migrationsApi, type MigrationsApi } from './migrations-api.ts';
import { InboxHolds } from './inbox-holds.ts';
import type { Tracing } from './tracing/otlp.ts';
import { traceProcesses } from './tracing/process-spans.ts';

export type { ActionRequest } from './action-intake.ts';
export type { EngineOptions, StartContext, StartedProc, TickReport } from './engine-types.ts';
/** The views of live processes and tasks that event listeners (the socket bridge, metrics) send on. */
export { procInfo, taskInfo } from './info.ts';

export class Engine {
  private readonly rt: Runtime;
  private readonly modelStore: Models;
  private readonly starter: Starter;
  private readonly startKeys: StartKeys;
  private timer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private readonly lease: InstanceLease;
  private closed = false;
  /** Spans of processes to an OTLP receiver, when configured. */
  private tracing: Tracing | undefined;
  private readonly fills: SlotFills;
  private readonly recovery: BootRecovery;
  private readonly ticker: Ticker;
  private readonly schedules: ScheduleTimer;
  private readonly relay: Relay;
  private readonly intake: ActionIntake;
  private readonly detector: StuckDetector;
  private readonly reader: ProcessReader;

  private constructor(parts: EngineParts, options: EngineOptions) {
    const links = {
      startProcess: (mid: string, inputs: Vars, parent: ParentRef | null) => this.starter.start(mid, inputs, parent),
      slotFreed: () => void this.fills.request(),
      modelVersion: (mid: string, ver: number) => this.modelStore.heldVersion(mid, ver),
      loadVersion: (mid: string, ver: number) => this.modelStore.version(mid, ver),
    };
    const rt = createRuntime({ ...parts, links, faults: options.faults });
    const models = new Models(parts.store, parts.registry, parts.sandbox, parts.clock, multiInstance(parts.store), options.modelFreshMs, parts.secrets);
    this.rt = rt;
    this.modelStore = models;
    this.lease = new InstanceLease(rt, rt.config.instanceId, parts.leaseMs);
    this.relay = new Relay(rt);
    this.messages = messagesApi(rt);
    this.fills = new SlotFills(rt, models, () => this.closed);
    this.recovery = new BootRecovery(rt, models);
    this.intake = new ActionIntake(rt, this.lease, this.relay, options.relayTimeoutMs ?? 10_000, () => this.recovery.running);
    this.starter = new Starter(rt, models);
    this.startKeys = new StartKeys(rt, (instance) => this.lease.mayBeRunning(instance));
    this.detector = new StuckDetector(rt);
    this.reader = new ProcessReader(rt, models, () => this.closed);
    this.reads = new ReadModel(rt, this.reader);
    this.inboxHolds = new InboxHolds(rt);
    this.insights = new Insights(rt, this.reader);
    this.files = new AnswerFiles(rt.store, rt.clock);
    this.models = modelsApi(rt, models, () => this.check(), () => this.packages.refresh());
    this.migrations = migrationsApi(rt, models, this.reader, (request) => this.do(request));
    this.workers = new WorkerJobs(rt, (request) => this.do(request), (channel) => this.channel(channel), () => this.packages.refresh());
    this.packages = packagesApi(rt, { opened: (name) => this.workers.open(name), closed: (name) => this.workers.close(name) });
    this.schedules = new ScheduleTimer(rt, { start: (mid, inputs) => this.procs.start(mid, inputs), isLeader: () => this.lease.isLeader() });
    models.onTriggerRows(() => this.schedules.rearm());
    this.triggers = triggersApi(
      rt,
      (mid, inputs, context) => this.procs.start(mid, inputs, context),
      (pid) => this.reader.finished(pid),
      () => this.schedules.rearm(),
    );
    this.ticker = new Ticker({
      rt,
      lease: this.lease,
      relay: this.relay,
      detector: this.detector,
      fills: this.fills,
      recovery: this.recovery,
      schedules: this.schedules,
      renewLease: () => this.renewLease(),
      closed: () => this.closed,
      sweepAfterMs: options.sweepAfterSecs === undefined ? undefined : options.sweepAfterSecs * 1000,
      refreshPackages: () => this.packages.refresh(),
    });
  }

  static async create(options: EngineOptions = {}): Promise<Engine> {
    const parts = await engineParts(options);
    let engine: Engine;
    try {
      // the runtime refuses bad options (a lane pass of no job), after the sandbox and code pool exist
      engine = new Engine(parts, options);
      const rt = engine.rt;
      // the runtime's facts reach the engine's logger as events (event-log.ts)
      logEvents(rt.events, rt.log);
      if (parts.tracing) {
        engine.tracing = parts.tracing;
        traceProcesses((event, listener) => rt.events.on(event, listener), parts.tracing, () => rt.clock.now());
      }
      boundWriter(rt, options.storeWriterCap ?? DEFAULT_STORE_WRITER_CAP);
      await parts.codePool?.ready();
      await engine.lease.register();
    } catch (err) {
      parts.sandbox.close();
      await parts.codePool?.close();
      throw err;
    }
    const rt = engine.rt;
    await publishPackages(rt);
    await engine.packages.refresh();
    // relayed work is applied from the first tick on (recovered jobs run after create returns)
    if (multiInstance(parts.store)) {
      await engine.relay.start();
      await engine.modelStore.watch();
    }
    options.listen?.(engine);
    let recovered: Promise<unknown> = Promise.resolve();
    if (options.recover !== false) {
      const recovery = engine.recovery.start(engine.fills);
      recovered = recovery.catch(() => undefined);
      if (!options.recoverInBackground) await recovery;
    }
    if (options.autoTick !== false) {
      engine.timer = setInterval(() => void engine.tick().catch((e) => rt.log.error(String(e))), parts.config.tickMs);
      engine.timer.unref();
      engine.leaseTimer = setInterval(() => void engine.renewLease(), parts.leaseMs / 3);
      engine.leaseTimer.unref();
      // schedules fire on their own timer once the recovery ended, like the ticks (the ticks fire them too, as the fallback)
      void recovered.then(() => engine.schedules.start());
    }
    return engine;
  }

  /** Resolves with the boot recovery's report once it ended (rejects when it failed); null when none ran. */
  recovered(): Promise<RecoverReport> | null {
    return this.recovery.report;
  }

  /** This engine instance's id (the `owner` of the processes it runs). */
  get instanceId(): string {
    return this.rt.config.instanceId;
  }

  private async renewLease(): Promise<void> {
    if (this.closed) return;
    try {
      await this.lease.renew();
    } catch (err) {
      this.rt.log.error(`renewing the lease of instance ${this.instanceId} failed: ${errorMessage(err)}`);
    }
  }

  private check(): void {
    if (this.closed) throw new ActError('engine.closed', 'the engine is closed');
  }

  // ---- models and reads ----

  readonly models: ModelsApi;
  /** Moving running processes to another version of their model (migrations-api.ts, engine/migrate.ts). */
  readonly migrations: MigrationsApi;
  /** What the API reads: inboxes, task forms, stored process rows, catch-up changes (read-model.ts). */
  readonly reads: ReadModel;
  /** Who holds the open inbox tasks (claims, delegations: inbox-holds.ts). */
  readonly inboxHolds: InboxHolds;
  /** Node figures of a model (heatmaps) and where a run's work waits in the runtime (insights.ts). */
  readonly insights: Insights;
  /** Files uploaded for interrupt acts' answers, kept with their process (answer-files.ts). */
  readonly files: AnswerFiles;

  // ---- processes and tasks ----

  readonly procs = {
    /**
     * Starts the latest version of a model. `context.owner` is the caller's authority, filled in
     * by trusted server code (spec 5.9); it never comes from the start options. With
     * `context.idempotencyKey` a repeat of an earlier start answers its process (`repeated: true`;
     * start-keys.ts).
     */
    start: async (mid: string, options: Vars = {}, context: StartContext = {}): Promise<StartedProc> => {
      this.check();
      if (!isVarsObject(options)) throw new ActError('inputs.invalid', 'start options must be an object');
      const owner = context.owner ?? null;
      if (context.idempotencyKey === undefined) return { ...procInfo(await this.starter.start(mid, options, null, owner)), repeated: false };
      const started = await this.startKeys.run(mid, options, context.idempotencyKey, async (key, pid) => (await this.starter.start(mid, { ...options, pid }, null, owner, key)).pid);
      return { ...procInfo(await this.reader.loaded(started.pid)), repeated: started.repeated };
    },
    /**
     * Starts a new process that re-runs `pid` from its step `from`, on the model version it ran,
     * with its start inputs and the outputs of the steps it completed before that step
     * (engine/control.ts `rerunInputs`); the new process's control names the one it re-runs.
     */
    rerun: async (pid: string, from: string, context: StartContext = {}): Promise<ProcInfo> => {
      this.check();
      const original = await this.reader.loaded(pid);
      // the starter checks that `from` is one of the workflow's own steps
      const rerun = { pid, ver: original.workflow.ver, source: original.source, from };
      return procInfo(await this.starter.start(original.mid, rerunInputs(original, from), null, context.owner ?? null, null, rerun));
    },
    get: async (pid: string): Promise<ProcDetail> => procDetail(await this.reader.loaded(pid)),
    /** The process and its tasks without their variables (what a live run page draws). */
    summary: async (pid: string): Promise<ProcSummary> => procSummary(await this.reader.loaded(pid)),
    list: async (query?: Query): Promise<PageData<ProcRow>> => {
      await this.rt.writer.flush();
      return this.rt.store.procs.query(query);
    },
    /** How many processes the store holds in `state`. */
    count: async (state: string): Promise<number> => {
      await this.rt.writer.flush();
      return this.rt.store.queries.countProcessesIn(state);
    },
    /** Waits until the process reaches a terminal state. */
    wait: (pid: string): Promise<ProcInfo> => this.reader.finished(pid),
    /** Aborts the whole process (its root task), wherever it runs. */
    abort: (pid: string, options?: Vars): Promise<void> => this.do({ pid, tid: '$', action: 'abort', options }),
    /** Sets process variables (on its root task), wherever it runs. */
    setVars: (pid: string, vars: Vars): Promise<void> => this.do({ pid, tid: '$', action: 'set_process_vars', options: vars }),
  };

  readonly tasks = {
    list: async (pid: string): Promise<TaskInfo[]> => [...(await this.reader.loaded(pid)).tasks.values()].map(taskInfo),
    get: async (pid: string, tid: string): Promise<TaskInfo> => {
      const task = (await this.reader.loaded(pid)).tasks.get(tid);
      if (!task) throw new ActError('task.not_found', `cannot find task '${tid}' in process '${pid}'`);
      return taskInfo(task);
    },
  };

  // ---- client actions ----

  /**
   * Applies one client action wherever its process runs; resolves once its effects are written,
   * rejects with the reason it was refused (action-intake.ts).
   */
  async do(request: ActionRequest): Promise<void> {
    this.check();
    return this.intake.take(request);
  }

  readonly act = {
    complete: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'complete', options }),
    submit: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'submit', options }),
    back: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'back', options }),
    cancel: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'cancel', options }),
    abort: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'abort', options }),
    skip: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'skip', options }),
    error: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'error', options }),
    push: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'push', options }),
    remove: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'remove', options }),
    setVars: (pid: string, tid: string, options?: Vars) => this.do({ pid, tid, action: 'set_process_vars', options }),
  };

  // ---- messages and channels ----

  /** Opens a channel; a channel with the same id replaces the earlier one's handlers. */
  channel(options: ChannelOptions = {}): Channel {
    this.check();
    const id = options.id || this.rt.newId(8);
    const channel = new Channel(id, options, (c) => {
      if (this.rt.channels.get(c.id) === c) this.rt.channels.delete(c.id);
    });
    this.rt.channels.set(id, channel);
    return channel;
  }

  /** Removes a channel's handlers by id (`msg().unsub`). */
  unsub(channelId: string): boolean {
    return this.rt.channels.delete(channelId);
  }

  readonly messages: MessagesApi;

  // ---- packages ----

  readonly packages: PackagesApi;
  /** Remote workers' jobs: acts of external packages, leased to the workers that poll for them (worker-jobs.ts). */
  readonly workers: WorkerJobs;

  /** Snapshot stores (spec 5.8): sealed, versioned data per scope, pushed from outside. */
  readonly snapshots = {
    register: (target: string, options?: SnapshotOptions) => this.rt.snapshots.register(target, options),
    push: (target: string, scope: string, version: number, values: Vars) => this.rt.snapshots.push(target, scope, version, values, this.rt.clock.now()),
    remove: (target: string, scope: string) => this.rt.snapshots.remove(target, scope),
  };

  /** Registers a user variable module: `name` becomes a global object in expressions. */
  registerVar(name: string, defaults: Vars = {}): void {
    this.rt.expressions.userVars.set(name, defaults);
  }

  // ---- triggers ----

  readonly triggers: TriggersApi;

  /** Rebuilds the unfinished processes of the store and continues them (spec 5.3). */
  recover(): Promise<RecoverReport> {
    return recoverProcesses(this.rt, this.modelStore);
  }

  // ---- time, events, lifecycle ----

  /** The engine's time (epoch ms): what its timeout rules and the inbox's due dates go by (an injected clock in tests). */
  now(): number {
    return this.rt.clock.now();
  }

  /** One timer tick (ticker.ts); tests and the CLI call it with an injected clock. */
  tick(): Promise<TickReport> {
    return this.ticker.tick();
  }

  /** Health of the timer loops, the lanes, the store writer and the stuck processes (spec 5.10, 5.14). */
  health(): EngineHealth {
    return engineHealth(this.rt, this.ticker.loops(), this.detector, this.recovery.health, this.schedules.health());
  }

  /**
   * Resident processes that nothing can move: no open interrupt, armed timeout, queued job,
   * running subflow child or open outbox record (liveness.ts). Empty in a healthy engine. The
   * tick's detector reports and marks them (`stuck` events, `stuck_since`).
   */
  stuckProcesses(): Promise<StuckProcess[]> {
    return findStuck(this.rt);
  }

  /** Earliest time a timeout rule of an open task falls due (epoch ms), or null. */
  nextTimeoutAt(): number | null {
    return nextTimeoutAt(this.rt);
  }

  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void {
    return this.rt.events.on(event, listener);
  }

  /**
   * Whether nothing can move but work waiting for code workers: no job can run, nothing is being
   * started, dispatched or written. With `codeAnswers`, the simulation hands an answer over only then.
   */
  waitsOnlyForCode(): boolean {
    return this.rt.jobs.queue.stalled && this.rt.jobs.inFlight.size === 0 && !this.rt.dispatcher.busy && this.rt.writer.depth === 0 && !this.fills.current;
  }

  /** Resolves when no job is queued, no handler runs and every store write landed. */
  async idle(): Promise<void> {
    for (;;) {
      await this.rt.jobs.queue.idle();
      await this.rt.dispatcher.idle();
      await this.rt.writer.flush();
      const filling = this.fills.current;
      if (filling) {
        await filling;
        continue;
      }
      if (this.rt.jobs.inFlight.size > 0) {
        await Promise.allSettled([...this.rt.jobs.inFlight]);
        continue;
      }
      if (this.rt.jobs.queue.depth === 0 && !this.rt.dispatcher.busy) return;
    }
  }

  /**
   * The number of the latest job batch. Every event emitted so far belongs to a batch at or below
   * it; the `committed` event says when that batch is in the store.
   */
  batchSeq(): number {
    return this.rt.batch.seq;
  }

  /**
   * Queues `part` — writes of the server's own rows (audit entries) — with the engine's store
   * transactions: the store writer commits it with its neighbouring job writes, instead of a
   * transaction of its own; resolves once that transaction committed, rejects when it failed.
   * Refused (`engine.busy`) while the writer is saturated: queued behind its backlog, the record
   * of a call refused for that very reason would hold the call's answer back.
   */
  writeAlong(part: (tx: Store) => Promise<void>): Promise<void> {
    this.check();
    this.rt.writer.admit();
    return this.rt.writer.writeBatch(part);
  }

  /** Resolves once every store write queued so far landed (reads of the store then see them). */
  flush(): Promise<void> {
    return this.rt.writer.flush();
  }

  /** The engine instances sharing the store and their leases (live and recently lapsed ones). */
  async instances(): Promise<InstanceRow[]> {
    return (await this.rt.store.instances.query({ order_by: ['started', 'id'] })).rows;
  }

  /** The outbox records (spec 5.2), for operations views and tests. */
  async outbox(query?: Query): Promise<OpRow[]> {
    await this.rt.writer.flush();
    return (await this.rt.store.ops.query(query)).rows;
  }

  /** Runtime figures for health pages and benchmarks. */
  stats(): EngineStats {
    return engineStats(this.rt, this.detector);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.workers.closeAll();
    await this.schedules.close();
    await this.fills.current;
    await this.relay.stop();
    await this.modelStore.unwatch();
    // calls and scripts in flight are cut off: their acts stay running, and a restart calls again (recover.ts)
    this.rt.http.close();
    this.rt.shell.close();
    this.rt.jobs.queue.close();
    // processes started but not run yet: their rows are written, so a restart runs them
    this.rt.batch.release();
    await this.rt.batch.flush().catch(() => undefined);
    await this.rt.writer.flush();
    await this.lease.release().catch((err) => this.rt.log.error(`removing instance ${this.instanceId} failed: ${errorMessage(err)}`));
    this.rt.sandbox.close();
    await this.rt.codePool?.close();
    await this.rt.state.close();
    await this.tracing?.close().catch((err: unknown) => this.rt.log.error(`sending the last spans failed: ${errorMessage(err)}`));
    await this.rt.store.close();
  }

  /** Sends the spans buffered so far (tracing on); resolves at once when off. */
  async flushTraces(): Promise<void> {
    await this.tracing?.flush();
  }
}
