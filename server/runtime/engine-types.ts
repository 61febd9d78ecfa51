/** The option and result types of the `Engine` facade (engine.ts). */
import type { SecretReader } from '../engine/secrets.ts';
import type { Clock, IdSource } from '../engine/clock.ts';
import type { FaultPoint } from '../engine/context.ts';
import type { Logger } from '../engine/logger.ts';
import type { OwnerScope } from '../engine/owner-scope.ts';
import type { SandboxLimits } from '../engine/sandbox/types.ts';
import type { Store } from '../store/contract/types.ts';
import type { EngineEvents } from './events.ts';
import type { ProcInfo } from './info.ts';
import type { HostPolicyConfig } from './outbound-http/host-policy.ts';
import type { TracingOptions } from './tracing/otlp.ts';
import type { ShellConfig } from './shell/runner.ts';
import type { StateConfig } from './state/process-state.ts';

export interface EngineOptions {
  store?: Store;
  clock?: Clock;
  newId?: IdSource;
  /** Period of timeouts and redelivery (default 15 s; ≤ 0 means 15 s). */
  tickIntervalSecs?: number;
  maxMessageRetryTimes?: number;
  sandbox?: Partial<SandboxLimits>;
  /**
   * Worker threads that run the code of `acts.transform.code` acts (default 0: on the engine's
   * thread, inside the job). With workers, a code act holds its lane while its code runs there, so
   * the API, timers and other lanes never wait on user code. The server uses one per lane.
   */
  codeWorkers?: number;
  /**
   * Which hosts `acts.core.http` acts may call (default: any): `allow` (when not empty, only
   * these), `deny` (never these), `denyPrivate` (no loopback, private or link-local address
   * unless allowed by name or address). Checked on the resolved address and on every redirect.
   */
  http?: HostPolicyConfig;
  /**
   * `acts.app.shell` acts (default: off — deploying or running one is `shell.disabled`): `enabled`
   * runs them; `root` holds the directories of processes without a workdir of their own.
   */
  shell?: ShellConfig;
  /** Where `acts.app.state` values are kept: `redisUrl` (and `redisPrefix`), else the engine's store. */
  state?: StateConfig;
  /** The project's secrets, read by `{{ secrets.NAME }}` in act params (server/secrets' SecretBook); default: none. */
  secrets?: SecretReader;
  /**
   * OpenTelemetry: a span per workflow, step and act of every process, sent to this OTLP/HTTP
   * traces endpoint; http acts send `traceparent` (default: off, and nothing of it runs).
   */
  tracing?: TracingOptions;
  /** Most tasks one process may create (`step_budget`, default 100,000); past it the process ends in error. */
  stepBudget?: number;
  /**
   * An act failing with no catch holds its process as an incident for an operator (retry or fail
   * it; engine/control.ts) instead of failing the process — for workflows that do not set
   * `incidents` themselves (`incidents`, default false: the spec's behaviour).
   */
  incidents?: boolean;
  /** Largest JSON (bytes) of an act's result, a written value, a task's data or start inputs (default 1 MiB). */
  valueCapBytes?: number;
  logger?: Logger;
  /** Run `tick()` on a timer (default true). Tests and the CLI drive ticks themselves. */
  autoTick?: boolean;
  /** Continue the unfinished processes found in the store at start (default true). */
  recover?: boolean;
  /**
   * Return from `create` as soon as the store is open and the instance registered, and recover in
   * the background (default false: `create` returns once recovery is done). `health().recovery`
   * says how far it got, `recovered()` resolves with its report; an action for a process not yet
   * loaded waits for it (at most `relayTimeoutMs`, then `engine.busy` with reason `recovering`).
   */
  recoverInBackground?: boolean;
  /**
   * Called once the engine is made and before the boot recovery starts: listeners it adds hear
   * the recovery's own events too (an action recorded before a crash and applied by recovery,
   * say), which listeners added after `create` returns would miss.
   */
  listen?: (engine: ListenedEngine) => void;
  /**
   * Delete a finished process and all its rows this many seconds after it ended, once its
   * deliveries settled (spec 5.6). Default: never — the run history stays queryable.
   */
  sweepAfterSecs?: number;
  /** Most unfinished processes in memory (`cache_cap`, default 1024); further starts are parked. */
  cacheCap?: number;
  /** Confine every process to `<workdirRoot>/<pid>` (spec 5.9). */
  workdirRoot?: string;
  /** Lanes (default 4) and the jobs they may hold in memory across all lanes (default 4096). */
  schedulerWorkers?: number;
  schedulerQueueCap?: number;
  /**
   * Jobs a drain pass of the lanes runs before it yields to the event loop (default 256, or 32
   * where the store writes on a thread of its own: lanes.ts). A tuning knob, set by the simulation
   * to run the shorter pass on stores that write on the engine's thread.
   */
  lanePassJobs?: number;
  /**
   * Most writes waiting in the store writer (`store_writer_cap`, default 10000). Reaching it
   * saturates the writer: new starts and client actions are refused with `engine.busy` until it
   * drained to half; writes of running jobs are never refused.
   */
  storeWriterCap?: number;
  /** Test-only: called at named points where a crash test may kill the process. */
  faults?: (point: FaultPoint) => void;
  /**
   * Test-only, for runs that must repeat exactly (the simulation): how the code workers' answers
   * reach the engine — given each answer as it is asked for, it returns the promise the engine
   * waits on (the simulation hands them over in the order they were asked, whenever nothing else
   * can run), and `expressionTrialMs: 0` sends every expression to a worker instead of trying it
   * here for a time slice first (whether a slice suffices depends on the machine's load).
   */
  codeAnswers?: <T>(answer: Promise<T>) => Promise<T>;
  expressionTrialMs?: number;
  /** This engine instance's id in the store (default: 12 random characters; see instances.ts). */
  instanceId?: string;
  /**
   * How long the instance's lease lasts without renewal, ms (default 3 tick intervals, at least
   * 1 s). Another instance takes its processes over once it lapsed.
   */
  leaseMs?: number;
  /**
   * How long an action sent to the instance that runs its process may take to be confirmed, ms
   * (default 10 s; then `engine.busy`, the action staying queued there).
   */
  relayTimeoutMs?: number;
  /**
   * On a store other instances share (PostgreSQL): how long a start uses the latest version of a
   * model it cached without asking the store again, ms (default 1000). A deploy or removal on any
   * instance reaches the others at once (NOTIFY); this bounds the delay should that be lost.
   */
  modelFreshMs?: number;
}

export interface TickReport {
  timeouts: number;
  redelivered: number;
  /** Finished processes deleted by the sweeper. */
  swept: number;
  replayed: number;
  /** Schedule triggers that started a process. */
  fired: number;
  /** Resident processes nothing can move, after this tick's check (stuck-detector.ts). */
  stuck: number;
}

/** Who starts a process (`owner`, from trusted server code) and the start's idempotency key. */
export interface StartContext {
  owner?: OwnerScope;
  idempotencyKey?: string;
}

/** A started process; `repeated`: an earlier start with the same idempotency key made it. */
export type StartedProc = ProcInfo & { repeated: boolean };

/** What the runtime is configured with (resolved from `EngineOptions` by `Engine.create`). */
export interface RuntimeConfig {
  tickMs: number;
  maxMessageRetryTimes: number;
  /** Lanes (`scheduler_workers`) and the jobs they may hold in memory (`scheduler_queue_cap`). */
  workers: number;
  queueCap: number;
  /** Jobs a drain pass of the lanes runs before it yields (lanes.ts); unset: chosen by the store writer. */
  passJobs?: number;
  /** Most unfinished processes held in memory (`cache_cap`); starts beyond it are parked. */
  cacheCap: number;
  /** Confine every process to `<workdirRoot>/<pid>` (spec 5.9); a caller's scope may set its own. */
  workdirRoot?: string;
  /** This engine instance (the `owner` of the process rows it writes; see instances.ts). */
  instanceId: string;
  /**
   * Which hosts `acts.core.http` acts may call (default: any): `allow` (when not empty, only
   * these), `deny` (never these), `denyPrivate` (no loopback, private or link-local address
   * unless allowed by name or address). Checked on the resolved address and on every redirect.
   */
  http?: HostPolicyConfig;
  /** Most tasks one process may create (`step_budget`, see step-budget.ts). */
  stepBudget: number;
  /** Whether uncaught act failures hold their process as incidents by default (engine/control.ts). */
  incidents: boolean;
  /** Largest JSON of an act's result, a written value, a task's data (`value_cap_bytes`, see value-cap.ts). */
  valueCapBytes: number;
  /** How long an expression is tried on the engine's thread before it moves to a code worker (0: never tried). */
  trialSliceMs: number;
}

/** What `listen` gets of the engine being made: its events, and the number of its open store batch. */
export interface ListenedEngine {
  on<K extends keyof EngineEvents>(event: K, listener: (payload: EngineEvents[K]) => void): () => void;
  batchSeq(): number;
}
