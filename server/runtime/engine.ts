/**
 * The public, promise-based engine API (spec 3.7). One `Engine` owns a store, a sandbox, the
 * package registry and the job queue. States: running → closed (after `close()` every call fails
 * with `engine.closed`).
 */
import { ActionIntake, type ActionRequest } from './action-intake.ts';
import { messagesApi, type MessagesApi } from './messages-api.ts';
import { Channel, type ChannelOptions } from './channels.ts';
import { randomId, systemClock } from '../engine/clock.ts';
import { Core } from './core.ts';
import { ProcessReader } from './process-reader.ts';
import { ReadModel } from './read-model.ts';
import { modelsApi, packagesApi, publishPackages, triggersApi, type ModelsApi, type PackagesApi, type TriggersApi } from './engine-catalog.ts';
import type { EngineOptions, StartContext, StartedProc, TickReport } from './engine-types.ts';
import { ActError, errorMessage } from '../engine/errors.ts';
import type { EngineEvents } from './events.ts';
import { silentLogger } from '../engine/logger.ts';
import { procDetail, procInfo, taskInfo, type ProcDetail, type ProcInfo, type TaskInfo } from './info.ts';
import type { Vars } from '../engine/model/types.ts';
import { Models } from './models.ts';
import { PackageRegistry } from '../engine/packages/registry.ts';
import { createSandbox, DEFAULT_LIMITS } from '../engine/sandbox/quickjs.ts';
import { CodePool } from '../engine/sandbox/code-pool.ts';
import { DEFAULT_STEP_BUDGET } from '../engine/step-budget.ts';
import { DEFAULT_VALUE_CAP_BYTES } from '../engine/value-cap.ts';
import { Starter } from './start.ts';
import { StartKeys } from './start-keys.ts';
import { MemoryStore } from '../engine/store/memory.ts';
import type { InstanceRow, OpRow, PageData, ProcRow, Query } from '../engine/store/types.ts';
import { checkTimeouts, nextTimeoutAt, redeliver, replayOverflow, sweepFinished } from './timers.ts';
import { fireSchedules } from './schedules.ts';
import { LoopGuard } from './loop-guard.ts';
import { logEvents } from './event-log.ts';
import { fillSlots, recoverProcesses, type RecoverReport } from './recover.ts';
import { InstanceLease } from './instances.ts';
import { multiInstance } from './relay-records.ts';
import { Relay } from './relay.ts';
import type { SnapshotOptions } from '../engine/snapshots.ts';
import type { StuckProcess } from './liveness.ts';
import { findStuck } from './stuck-check.ts';
import { StuckDetector } from './stuck-detector.ts';
import { DEFAULT_STORE_WRITER_CAP } from './store-writer.ts';
import { boundWriter, engineHealth, engineStats, type EngineHealth, type EngineStats, type RecoveryHealth } from './engine-health.ts';
import type { RecoveryRun } from './action-intake.ts';
import { isVarsObject } from '../engine/vars.ts';

export type { ActionRequest } from './action-intake.ts';
export type { EngineOptions, StartContext, StartedProc, TickReport } from './engine-types.ts';

export class Engine {
  private readonly core: Core;
  private readonly modelStore: Models;
  private readonly starter: Starter;
  private readonly startKeys: StartKeys;
  private timer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private lease!: InstanceLease;
  private closed = false;
  private filling: Promise<void> | null = null;
  private sweepAfterMs: number | undefined;
  private readonly retryLoop: LoopGuard;
  private readonly scheduleLoop: LoopGuard;
  private refill = false;
  private readonly relay: Relay;
  private relayTimeoutMs = 10_000;
  private readonly intake: ActionIntake;
  private readonly detector: StuckDetector;
  private readonly reader: ProcessReader;
  /** Boot recovery: idle (nothing to recover, or done) → recovering (`recovery` set) → done or failed. */
  private recoveryHealth: RecoveryHealth = { recovering: false, loaded: 0, total: 0, failed: 0 };
  private recovery: (RecoveryRun & { report: Promise<RecoverReport> }) | null = null;

  private constructor(core: Core, models: Models) {
    this.core = core;
    this.retryLoop = new LoopGuard('message-retry', core.events);
    this.scheduleLoop = new LoopGuard('schedule-trigger', core.events);
    this.relay = new Relay(core);
    this.messages = messagesApi(core);
    this.intake = new ActionIntake(core, () => this.lease, this.relay, () => this.relayTimeoutMs, () => (this.recoveryHealth.recovering ? this.recovery : null));
    this.modelStore = models;
    this.starter = new Starter(core, models);
    this.startKeys = new StartKeys(core, (instance) => this.lease.mayBeRunning(instance));
    this.detector = new StuckDetector(core);
    this.reader = new ProcessReader(core, models, () => this.closed);
    this.reads = new ReadModel(core, this.reader);
    this.models = modelsApi(core, models, () => this.check());
    this.packages = packagesApi(core);
    this.triggers = triggersApi(core, (mid, options, context) => this.procs.start(mid, options, context), (pid) => this.reader.finished(pid));
    core.startProcess = (mid, options, parent) => this.starter.start(mid, options, parent);
    core.residents.onSlotFreed = () => this.requestFill();
  }

  static async create(options: EngineOptions = {}): Promise<Engine> {
    const store = options.store ?? new MemoryStore();
    const clock = options.clock ?? systemClock;
    const sandbox = await createSandbox(options.sandbox);
    const codePool = options.codeWorkers ? new CodePool(options.codeWorkers, { ...DEFAULT_LIMITS, ...options.sandbox }) : undefined;
    const registry = new PackageRegistry();
    const secs = options.tickIntervalSecs && options.tickIntervalSecs > 0 ? options.tickIntervalSecs : 15;
    const core = new Core(
      store,
      sandbox,
      registry,
      clock,
      options.newId ?? randomId,
      {
        tickMs: secs * 1000,
        maxMessageRetryTimes: options.maxMessageRetryTimes ?? 20,
        workers: options.schedulerWorkers ?? 4,
        queueCap: options.schedulerQueueCap ?? 4096,
        cacheCap: options.cacheCap ?? 1024,
        workdirRoot: options.workdirRoot,
        instanceId: options.instanceId ?? randomId(12),
        stepBudget: options.stepBudget ?? DEFAULT_STEP_BUDGET,
        valueCapBytes: options.valueCapBytes ?? DEFAULT_VALUE_CAP_BYTES,
      },
      options.logger ?? silentLogger,
      options.faults,
      codePool,
    );
    const engine = new Engine(core, new Models(store, registry, sandbox, clock));
    // the runtime's facts reach the engine's logger as events (event-log.ts)
    logEvents(core.events, core.log);
    const leaseMs = Math.max(1000, options.leaseMs ?? 3 * secs * 1000);
    engine.lease = new InstanceLease(core, core.config.instanceId, leaseMs);
    try {
      boundWriter(core, options.storeWriterCap ?? DEFAULT_STORE_WRITER_CAP);
      await codePool?.ready();
      await engine.lease.register();
    } catch (err) {
      sandbox.close();
      await codePool?.close();
      throw err;
    }
    engine.sweepAfterMs = options.sweepAfterSecs === undefined ? undefined : options.sweepAfterSecs * 1000;
    engine.relayTimeoutMs = options.relayTimeoutMs ?? engine.relayTimeoutMs;
    await publishPackages(engine.core);
    // relayed work is applied from the first tick on (recovered jobs run after create returns)
    if (multiInstance(store)) await engine.relay.start();
    if (options.recover !== false) {
      const recovery = engine.startRecovery();
      if (!options.recoverInBackground) await recovery;
    }
    if (options.autoTick !== false) {
      engine.timer = setInterval(() => void engine.tick().catch((e) => core.log.error(String(e))), secs * 1000);
      engine.timer.unref();
      engine.leaseTimer = setInterval(() => void engine.renewLease(), leaseMs / 3);
      engine.leaseTimer.unref();
    }
    return engine;
  }

  /**
   * Runs the boot recovery as the engine's first slot fill (fills and ticks wait for it), keeping
   * its progress for `health().recovery`. The promise rejects when recovery failed; in the
   * background that is logged and the engine stays not ready (`recovery.error`).
   */
  private startRecovery(): Promise<RecoverReport> {
    this.recoveryHealth = { recovering: true, loaded: 0, total: 0, failed: 0 };
    const report = recoverProcesses(this.core, this.modelStore, ({ loaded, total }) => {
      this.recoveryHealth = { ...this.recoveryHealth, loaded, total };
    }).then(
      (done) => {
        this.recoveryHealth = { recovering: false, loaded: done.processes, total: done.processes, failed: done.failed.length };
        if (done.processes > 0 || done.failed.length > 0) {
          this.core.log.info(`recovered ${done.processes} processes (${done.dispatched} tasks dispatched, ${done.failed.length} failed)`);
        }
        return done;
      },
      (err: unknown) => {
        this.recoveryHealth = { ...this.recoveryHealth, recovering: false, error: errorMessage(err) };
        this.core.log.error(`recovering the unfinished processes failed: ${errorMessage(err)}`);
        throw err;
      },
    );
    const settled = report.then(
      () => undefined,
      () => undefined,
    );
    const health = () => this.recoveryHealth;
    this.recovery = {
      get health() {
        return health();
      },
      done: settled,
      report,
    };
    const filling: Promise<void> = settled.finally(() => {
      if (this.filling === filling) this.filling = null;
    });
    this.filling = filling;
    return report;
  }

  /** Resolves with the boot recovery's report once it ended (rejects when it failed); null when none ran. */
  recovered(): Promise<RecoverReport> | null {
    return this.recovery?.report ?? null;
  }

  /** This engine instance's id (the `owner` of the processes it runs). */
  get instanceId(): string {
    return this.core.config.instanceId;
  }

  private async renewLease(): Promise<void> {
    if (this.closed) return;
    try {
      await this.lease.renew();
    } catch (err) {
      this.core.log.error(`renewing the lease of instance ${this.instanceId} failed: ${errorMessage(err)}`);
    }
  }

  private check(): void {
    if (this.closed) throw new ActError('engine.closed', 'the engine is closed');
  }

  // ---- models and reads ----

  readonly models: ModelsApi;
  /** What the API reads: inboxes, task forms, stored process rows, catch-up changes (read-model.ts). */
  readonly reads: ReadModel;

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
    get: async (pid: string): Promise<ProcDetail> => procDetail(await this.reader.loaded(pid)),
    list: async (query?: Query): Promise<PageData<ProcRow>> => {
      await this.core.writer.flush();
      return this.core.store.procs.query(query);
    },
    /** How many processes the store holds in `state`. */
    count: async (state: string): Promise<number> => {
      await this.core.writer.flush();
      return this.core.store.queries.countProcessesIn(state);
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

  /**
   * Fills free resident slots from the store (after a process left memory, and on every tick to
   * take over processes of lapsed instances), one fill at a time; resolves when it ran.
   */
  private requestFill(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.filling) {
      this.refill = true;
      return this.filling;
    }
    this.filling = (async () => {
      do {
        this.refill = false;
        // after the job that freed the slot has queued its writes
        await new Promise((resolve) => setImmediate(resolve));
        await this.core.writer.flush();
        if (this.closed) return;
        await fillSlots(this.core, this.modelStore);
      } while (this.refill);
    })()
      .catch((err) => this.core.log.error(`filling free slots failed: ${errorMessage(err)}`))
      .finally(() => {
        this.filling = null;
      });
    return this.filling;
  }

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
    const id = options.id || this.core.newId(8);
    const channel = new Channel(id, options, (c) => {
      if (this.core.channels.get(c.id) === c) this.core.channels.delete(c.id);
    });
    this.core.channels.set(id, channel);
    return channel;
  }

  /** Removes a channel's handlers by id (`msg().unsub`). */
  unsub(channelId: string): boolean {
    return this.core.channels.delete(channelId);
  }

  readonly messages: MessagesApi;

  // ---- packages ----

  readonly packages: PackagesApi;

  /** Snapshot stores (spec 5.8): sealed, versioned data per scope, pushed from outside. */
  readonly snapshots = {
    register: (target: string, options?: SnapshotOptions) => this.core.snapshots.register(target, options),
    push: (target: string, scope: string, version: number, values: Vars) => this.core.snapshots.push(target, scope, version, values, this.core.now()),
    remove: (target: string, scope: string) => this.core.snapshots.remove(target, scope),
  };

  /** Registers a user variable module: `name` becomes a global object in expressions. */
  registerVar(name: string, defaults: Vars = {}): void {
    this.core.userVars.set(name, defaults);
  }

  // ---- triggers ----

  readonly triggers: TriggersApi;

  /** Rebuilds the unfinished processes of the store and continues them (spec 5.3). */
  recover(): Promise<RecoverReport> {
    return recoverProcesses(this.core, this.modelStore);
  }

  // ---- time, events, lifecycle ----

  /**
   * One timer tick: task timeouts, then the store-facing loops, each behind its health guard
   * (spec 5.10): redelivery + overflow replay (`message-retry`) and schedule triggers
   * (`schedule-trigger`), then the liveness check of the resident processes (stuck-detector.ts).
   * Tests and the CLI call it with an injected clock.
   */
  async tick(): Promise<TickReport> {
    const report: TickReport = { timeouts: 0, redelivered: 0, swept: 0, replayed: 0, fired: 0, stuck: 0 };
    if (this.closed) return report;
    await this.renewLease();
    // recovering in the background: the first tick after it does the rest
    if (this.recoveryHealth.recovering) return report;
    // take over processes of instances whose lease lapsed (and fill free slots)
    await this.requestFill();
    if (multiInstance(this.core.store)) await this.relay.pass();
    const now = this.core.now();
    report.timeouts = checkTimeouts(this.core, now);
    this.core.snapshots.sweep(now);
    const leader = await this.lease.isLeader();
    await this.retryLoop.run(now, this.core.log, async () => {
      report.redelivered = await redeliver(this.core, now);
      if (leader) report.swept = await sweepFinished(this.core, now, this.sweepAfterMs);
      if (leader) await this.lease.sweepLapsed();
      report.replayed = await replayOverflow(this.core, now);
    });
    if (leader) {
      await this.scheduleLoop.run(now, this.core.log, async () => {
        report.fired = await fireSchedules(this.core, (mid, inputs) => this.procs.start(mid, inputs), now);
      });
    }
    if (!this.closed) report.stuck = await this.detector.check();
    return report;
  }

  /** Health of the timer loops, the lanes, the store writer and the stuck processes (spec 5.10, 5.14). */
  health(): EngineHealth {
    return engineHealth(this.core, [this.retryLoop.health(), this.scheduleLoop.health()], this.detector, this.recoveryHealth);
  }

  /**
   * Resident processes that nothing can move: no open interrupt, armed timeout, queued job,
   * running subflow child or open outbox record (liveness.ts). Empty in a healthy engine. The
   * tick's detector reports and marks them (`stuck` events, `stuck_since`).
   */
  stuckProcesses(): Promise<StuckProcess[]> {
    return findStuck(this.core);
  }

  /** Earliest time a timeout rule of an open task falls due (epoch ms), or null. */
  nextTimeoutAt(): number | null {
    return nextTimeoutAt(this.core);
  }

  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void {
    return this.core.events.on(event, listener);
  }

  /** Resolves when no job is queued, no handler runs and every store write landed. */
  async idle(): Promise<void> {
    for (;;) {
      await this.core.queue.idle();
      await this.core.dispatcher.idle();
      await this.core.writer.flush();
      if (this.filling) {
        await this.filling;
        continue;
      }
      if (this.core.inFlight.size > 0) {
        await Promise.allSettled([...this.core.inFlight]);
        continue;
      }
      if (this.core.queue.depth === 0 && !this.core.dispatcher.busy) return;
    }
  }

  /**
   * The number of the latest job batch. Every event emitted so far belongs to a batch at or below
   * it; the `committed` event says when that batch is in the store.
   */
  batchSeq(): number {
    return this.core.batchSeq;
  }

  /** Resolves once every store write queued so far landed (reads of the store then see them). */
  flush(): Promise<void> {
    return this.core.writer.flush();
  }

  /** The engine instances sharing the store and their leases (live and recently lapsed ones). */
  async instances(): Promise<InstanceRow[]> {
    return (await this.core.store.instances.query({ order_by: ['started', 'id'] })).rows;
  }

  /** The outbox records (spec 5.2), for operations views and tests. */
  async outbox(query?: Query): Promise<OpRow[]> {
    await this.core.writer.flush();
    return (await this.core.store.ops.query(query)).rows;
  }

  /** Runtime figures for health pages and benchmarks. */
  stats(): EngineStats {
    return engineStats(this.core, this.detector);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    if (this.filling) await this.filling;
    await this.relay.stop();
    this.core.queue.close();
    await this.core.writer.flush();
    await this.lease.release().catch((err) => this.core.log.error(`removing instance ${this.instanceId} failed: ${errorMessage(err)}`));
    this.core.sandbox.close();
    await this.core.codePool?.close();
    await this.core.store.close();
  }
}
