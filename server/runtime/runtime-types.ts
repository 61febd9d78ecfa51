/**
 * The runtime of one engine as a value (`Runtime`): its parts and the engine's port they implement
 * (built by runtime.ts `createRuntime`); what it is built from and what it asks of its engine.
 */
import type { SecretReader } from '../engine/secrets.ts';
import type { TaskStops } from './task-stops.ts';
import type { Channel, OrderedDispatcher } from './channels.ts';
import type { Clock, IdSource } from '../engine/clock.ts';
import type { EngineContext, FaultPoint, MigrationTarget, ParentRef } from '../engine/context.ts';
import type { Logger } from '../engine/logger.ts';
import type { Vars } from '../engine/model/types.ts';
import type { PackageRegistry } from '../engine/packages/registry.ts';
import type { Process } from '../engine/process.ts';
import type { CodePool } from '../engine/sandbox/code-pool.ts';
import type { Sandbox } from '../engine/sandbox/types.ts';
import type { HttpClient } from './outbound-http/client.ts';
import type { ShellProcesses } from './shell/runner.ts';
import type { ProcessState } from './state/process-state.ts';
import type { Snapshots } from '../engine/snapshots.ts';
import type { Task } from '../engine/task.ts';
import type { Store } from '../store/contract/types.ts';
import type { RuntimeConfig } from './engine-types.ts';
import type { EngineEvents, TypedEmitter } from './events.ts';
import type { Executions } from './executions.ts';
import type { Expressions } from './expressions.ts';
import type { JobBatch } from './job-batch.ts';
import type { Jobs } from './jobs.ts';
import type { Outbox } from './outbox.ts';
import type { Publisher } from './publisher.ts';
import type { Residents } from './residents.ts';
import type { StoreWriter } from './store-writer.ts';
import type { TaskWrites } from './task-writes.ts';
/** What the runtime asks of the engine that owns it (given at construction: engine.ts). */
export interface RuntimeLinks {
  startProcess(mid: string, options: Vars, parent: ParentRef | null): Promise<Process>;
  /** A finished process left memory while parked ones wait: fill the free slot. */
  slotFreed(): void;
  /** Version `ver` of model `mid`, compiled, when it is held here (the target of a migration: `loadVersion` first). */
  modelVersion(mid: string, ver: number): MigrationTarget | undefined;
  /** Loads and compiles a deployed version so `modelVersion` answers it; `model.not_found` when it is not deployed. */
  loadVersion(mid: string, ver: number): Promise<MigrationTarget>;
}

/** What a runtime is built from (engine-parts.ts, plus the test host's fault points). */
export interface RuntimeDeps {
  store: Store;
  sandbox: Sandbox;
  codePool?: CodePool;
  /** The HTTP client of `acts.core.http` acts. */
  http: HttpClient;
  /** The runner of `acts.app.shell` scripts. */
  shell: ShellProcesses;
  /** The keeper of `acts.app.state` values. */
  state: ProcessState;
  /** The project's secrets (`{{ secrets.NAME }}` in act params). */
  secrets: SecretReader;
  registry: PackageRegistry;
  clock: Clock;
  newId: IdSource;
  config: RuntimeConfig;
  log: Logger;
  links: RuntimeLinks;
  /** Test-only fault injection: named points where a test host may kill the process. */
  faults?: (point: FaultPoint) => void;
}

export interface Runtime {
  readonly store: Store;
  readonly sandbox: Sandbox;
  readonly codePool?: CodePool;
  readonly http: HttpClient;
  readonly shell: ShellProcesses;
  readonly state: ProcessState;
  readonly secrets: SecretReader;
  readonly registry: PackageRegistry;
  readonly clock: Clock;
  readonly newId: IdSource;
  readonly config: RuntimeConfig;
  readonly log: Logger;
  readonly links: RuntimeLinks;
  readonly fault: (point: FaultPoint) => void;
  readonly events: TypedEmitter<EngineEvents>;
  /** The processes held in memory (residents.ts); `procs` is its map. */
  readonly residents: Residents;
  readonly procs: Map<string, Process>;
  /** Tasks that own timeout rules, checked on every tick. */
  readonly timed: Set<Task>;
  /** Work of acts to stop when they close (task-stops.ts). */
  readonly stops: TaskStops;
  /** Subflow acts whose child process is being started (its start has not settled yet). */
  readonly startingChildren: Set<Task>;
  readonly snapshots: Snapshots;
  readonly channels: Map<string, Channel>;
  readonly dispatcher: OrderedDispatcher;
  readonly writer: StoreWriter;
  /** The rows of the running job, written as one batch after it. */
  readonly batch: JobBatch;
  /** Durable records of work not done yet. */
  readonly outbox: Outbox;
  readonly jobs: Jobs;
  readonly executions: Executions;
  readonly tasks: TaskWrites;
  readonly expressions: Expressions;
  readonly publisher: Publisher;
  /** The engine's port, implemented by the parts above. */
  readonly port: EngineContext;
}
