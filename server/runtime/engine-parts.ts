/**
 * What an engine is made of, from its options: the store (memory by default), the clock, the
 * sandbox and the code workers, the HTTP client of http acts and the runner of shell acts, the keeper of state acts' values, the package registry, ids and the logger, Runtime's configuration
 * with its defaults, and the instance lease's length.
 */
import { randomId, sortableIds, systemClock, type Clock, type IdSource } from '../engine/clock.ts';
import { silentLogger, type Logger } from '../engine/logger.ts';
import { PackageRegistry } from '../engine/packages/registry.ts';
import { createSandbox, DEFAULT_LIMITS } from '../engine/sandbox/quickjs.ts';
import { CodePool } from '../engine/sandbox/code-pool.ts';
import type { Sandbox } from '../engine/sandbox/types.ts';
import { DEFAULT_STEP_BUDGET } from '../engine/step-budget.ts';
import { MemoryStore } from '../store/contract/memory.ts';
import type { Store } from '../store/contract/types.ts';
import { DEFAULT_VALUE_CAP_BYTES } from '../engine/value-cap.ts';
import { TRIAL_SLICE_MS } from '../engine/expr/trials.ts';
import type { RuntimeConfig, EngineOptions } from './engine-types.ts';
import { HttpClient } from './outbound-http/client.ts';
import { SHELL_DISABLED, ShellProcesses } from './shell/runner.ts';
import { SHELL_PACKAGE } from '../engine/packages/shell.ts';
import { processState, type ProcessState } from './state/process-state.ts';
import { NO_SECRETS, type SecretReader } from '../engine/secrets.ts';
import { startTracing, type Tracing } from './tracing/otlp.ts';

export interface EngineParts {
  store: Store;
  clock: Clock;
  sandbox: Sandbox;
  codePool?: CodePool;
  http: HttpClient;
  shell: ShellProcesses;
  state: ProcessState;
  secrets: SecretReader;
  /** Spans of processes to an OTLP receiver, when configured. */
  tracing?: Tracing;
  registry: PackageRegistry;
  newId: IdSource;
  log: Logger;
  config: RuntimeConfig;
  /** How long an instance's lease runs without renewal (ms). */
  leaseMs: number;
}

export async function engineParts(options: EngineOptions): Promise<EngineParts> {
  const sandbox = await createSandbox(options.sandbox);
  const codePool = options.codeWorkers ? new CodePool(options.codeWorkers, { ...DEFAULT_LIMITS, ...options.sandbox }, options.codeAnswers) : undefined;
  const secs = options.tickIntervalSecs && options.tickIntervalSecs > 0 ? options.tickIntervalSecs : 15;
  const shell = new ShellProcesses(options.shell);
  const registry = new PackageRegistry();
  if (!shell.enabled) registry.turnOff(SHELL_PACKAGE, SHELL_DISABLED);
  const store = options.store ?? new MemoryStore();
  const clock = options.clock ?? systemClock;
  const tracing = options.tracing ? startTracing(options.tracing) : undefined;
  return {
    store,
    clock,
    sandbox,
    codePool,
    http: new HttpClient(options.http, tracing !== undefined),
    tracing,
    shell,
    state: processState(options.state, store, clock),
    secrets: options.secrets ?? NO_SECRETS,
    registry,
    newId: options.newId ?? sortableIds,
    log: options.logger ?? silentLogger,
    config: {
      tickMs: secs * 1000,
      maxMessageRetryTimes: options.maxMessageRetryTimes ?? 20,
      workers: options.schedulerWorkers ?? 4,
      queueCap: options.schedulerQueueCap ?? 4096,
      passJobs: options.lanePassJobs,
      cacheCap: options.cacheCap ?? 1024,
      workdirRoot: options.workdirRoot,
      instanceId: options.instanceId ?? randomId(12),
      stepBudget: options.stepBudget ?? DEFAULT_STEP_BUDGET,
      incidents: options.incidents ?? false,
      valueCapBytes: options.valueCapBytes ?? DEFAULT_VALUE_CAP_BYTES,
      trialSliceMs: options.expressionTrialMs ?? TRIAL_SLICE_MS,
    },
    leaseMs: Math.max(1000, options.leaseMs ?? 3 * secs * 1000),
  };
}
