/**
 * The persistence boundary of the engine (spec 4). The engine talks to storage only through this
 * interface; `MemoryStore` implements it for tests and the CLI, the Prisma store (SQLite and
 * PostgreSQL) implements it for production. Complex values are plain JSON-compatible objects.
 */
import type { Vars } from '../../engine/model/types.ts';
import type { DeliveryStatus } from '../../../vocab/states.ts';
import type { ControlState } from '../../../vocab/control.ts';
import type { InstanceRow, StartClaimRow, StateRow } from './instance-rows.ts';

export type { InstanceRow, StartClaimRow, StateRow } from './instance-rows.ts';
import type { FileRow } from './file-rows.ts';

export type { FileRow } from './file-rows.ts';
import type { InboxQueries, InboxRow, TaskRef } from './inbox.ts';
import type { NodeStatsQueries } from './node-stats.ts';

export type { InboxFilter, InboxHold, InboxOrder, InboxPage, InboxQueries, InboxRow, TaskRef } from './inbox.ts';
export type { NodeStatRow, NodeStatsQueries } from './node-stats.ts';

// ---- Query language (spec 4.2; behaves like SQL, section 0.13) ----

export type QueryOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'match';

export interface QueryExpr {
  key: string;
  op: QueryOp;
  value: unknown;
}

export interface QueryFilter {
  type: 'and' | 'or';
  exprs: Array<QueryExpr | QueryFilter>;
}

export interface OrderBy {
  field: string;
  order: 'asc' | 'desc';
}

export interface Query {
  offset?: number;
  limit?: number;
  filter?: QueryFilter;
  /** Items or shorthand strings: `+f` / `f` ascending, `-f` descending. */
  order_by?: Array<OrderBy | string>;
}

export interface PageData<T> {
  /** Total number of matching rows. */
  count: number;
  page_num: number;
  page_count: number;
  page_size: number;
  rows: T[];
}

// ---- Rows (spec 4.1; times are epoch milliseconds) ----

export interface ModelRow {
  id: string;
  name: string;
  ver: number;
  /** Bytes of the source text. */
  size: number;
  /** The model's source text (YAML or JSON) as deployed. */
  data: string;
  create_time: number;
  update_time: number;
  /** When an admin archived the model (epoch ms): it starts no new process, its runs go on; 0 when it is not archived. */
  archived: number;
  /** Node ids that pause every new run of version `ver` (a breakpoint per run, engine/control.ts); null or absent: none. */
  breakpoints?: { ver: number; nodes: string[] } | null;
}

/** One deployed version of a model, kept for history and diffs. */
export interface ModelVersionRow {
  id: string; // `<mid>:<ver>`
  mid: string;
  ver: number;
  data: string;
  create_time: number;
  /** What the deployer said about this version ('' when nothing). */
  note: string;
  /** Who deployed it (a user name), null when not known (the CLI, the engine API). */
  deployed_by: string | null;
}

import type { ErrorInfo } from '../../engine/errors.ts';
import type { MessageFields } from '../../engine/messages.ts';

export type { ErrorInfo };

export interface ProcRow {
  id: string; // pid
  state: string;
  mid: string;
  name: string;
  start_time: number;
  end_time: number;
  /** The model snapshot the process runs (source text). */
  model: string;
  model_ver: number;
  env: Vars;
  err: ErrorInfo | null;
  /** Parent coordinates when the process is a subflow child. */
  parent_pid: string | null;
  parent_tid: string | null;
  timestamp: number;
  /** The engine instance that runs (or last ran) the process (`InstanceRow.id`); null when none claimed it. */
  owner: string | null;
  /** When the stuck-process detector found that nothing can move the process (epoch ms); 0 when it is not stuck. */
  stuck_since: number;
  /** The idempotency key of the start (start-keys.ts); null or absent without one. */
  start_key?: string | null;
  /** The digest of the model id and start options given with `start_key`. */
  start_digest?: string | null;
  /** The values of the start inputs as the runs search reads them (runtime/inputs-text.ts); null or absent on rows written before. */
  inputs_text?: string | null;
  /** The declared outcome the run ended on (its state is then `completed`); null or absent for any other end. */
  outcome?: string | null;
  /** Pause, breakpoints, step over and incidents (engine/control.ts); null or absent when nobody controlled the process. */
  control?: ControlState | null;
  /** The process this one re-runs from one of its steps (`control.rerunOf.pid`); null or absent otherwise. */
  rerun_of?: string | null;
}

export interface TaskRow {
  id: string; // `<pid>:<tid>`
  pid: string;
  tid: string;
  /** Node definition travelling with the task, so dynamic nodes survive reloads. */
  node_data: unknown;
  kind: string;
  prev: string | null;
  parent: string | null;
  name: string;
  state: string;
  data: Vars;
  err: ErrorInfo | null;
  start_time: number;
  end_time: number;
  /** Lifecycle hooks, catches and timeouts registered on the task, as data. */
  hooks: unknown;
  timestamp: number;
}

/** A message as stored: the fields the engine's messages carry (engine/messages.ts). */
export type MessageRow = MessageFields;

export interface DeliveryRow {
  id: string;
  msg_id: string;
  chan_id: string;
  pid: string;
  tid: string;
  status: DeliveryStatus;
  retry_times: number;
  create_time: number;
  update_time: number;
}

/** A conditional change of a delivery (StoreQueries.leaseDelivery): its new status, attempt and time, if still at `was_retry_times`. */
export interface DeliveryLease {
  id: string;
  was_retry_times: number;
  status: DeliveryStatus;
  retry_times: number;
  update_time: number;
}

export interface EventRow {
  id: string; // `<mid>:<event id>`
  mid: string;
  name: string;
  ver: number;
  uses: string;
  /** `manual` | `hook` | `chat` | `schedule` */
  kind: string;
  params: unknown;
  cron: string | null;
  timezone: string | null;
  next_run: number;
  last_run: number;
  enabled: boolean;
  create_time: number;
  update_time: number;
}

export interface PackageRow {
  id: string; // package name
  desc: string;
  icon: string;
  doc: string;
  version: string;
  schema: unknown;
  run_as: 'irq' | 'msg' | 'func' | 'worker';
  resources: unknown;
  catalog: string;
  built_in: boolean;
  create_time: number;
  update_time: number;
}

export type OpType = 'exec' | 'next' | 'action' | 'relay';

export type OpStatus = 'pending' | 'overflow' | 'dispatched' | 'done';

/** One outbox record (spec 5.2). */
export interface OpRow {
  id: string;
  /**
   * `exec` (a task execution that found its lane full), `next` (propagation), `action` (a client
   * action), `relay` (work for a process another instance runs; relay.ts).
   */
  type: OpType;
  pid: string;
  tid: string;
  /** The action's event (`action` records), else null. */
  event: string | null;
  /** The action's options (JSON), else null. */
  options: unknown;
  /** pending → (overflow) → dispatched → done. */
  status: OpStatus;
  create_time: number;
  update_time: number;
}

export interface Collection<T extends { id: string }> {
  exists(id: string): Promise<boolean>;
  find(id: string): Promise<T | undefined>;
  query(query?: Query): Promise<PageData<T>>;
  /** Inserts a row; rejects when the id exists. */
  create(row: T): Promise<void>;
  /** Replaces an existing row; rejects when the id does not exist. */
  update(row: T): Promise<void>;
  upsert(row: T): Promise<void>;
  /** Returns whether a row was deleted. */
  delete(id: string): Promise<boolean>;
  /** Deletes every row matching the filter; returns how many. */
  deleteWhere(filter: QueryFilter): Promise<number>;
}

/**
 * The store's fixed questions, by name (graphile-worker's `src/sql/*`): everything the engine, the
 * API and the HTTP server ask of the store beyond one row by id, with typed parameters and rows.
 * The memory store answers them in its query language (memory-queries.ts), the SQL stores with
 * one statement file each (server/store/sql/); `Collection.query` stays for the API's user-driven
 * list filters. Rows come in creation order unless an order is named (ties then keep creation
 * order); times are epoch ms; lists are complete unless a `limit` is given. `delete…` and
 * `claim…` operations write; the others only read.
 */
export interface StoreQueries extends InboxQueries, NodeStatsQueries {
  // ---- procs ----
  /** Processes `owner` owns in one of `states`, oldest `timestamp` first, at most `limit` (recovery's fill). */
  ownedProcessesIn(owner: string, states: readonly string[], limit: number): Promise<ProcRow[]>;
  /** Subflow children of any of `parentPids` in one of `states` (recovery brings them along). */
  childProcessesIn(parentPids: readonly string[], states: readonly string[]): Promise<ProcRow[]>;
  /** The (first) subflow child the act `tid` of process `pid` started. */
  subflowChildOf(pid: string, tid: string): Promise<ProcRow | undefined>;
  /** The process started with the idempotency key `key` (start-keys.ts). */
  processWithStartKey(key: string): Promise<ProcRow | undefined>;
  /** Processes in one of `states` that ended at or before `endedBy`, earliest end first, at most `limit` (the sweeper). */
  processesEndedBy(states: readonly string[], endedBy: number, limit: number): Promise<ProcRow[]>;
  /** Processes of model `mid` that started or ended at or after `since`, earliest start first, at most `limit` (live catch-up). */
  modelProcessesChangedSince(mid: string, since: number, limit: number): Promise<ProcRow[]>;
  /** How many processes are in `state` (metrics). */
  countProcessesIn(state: string): Promise<number>;
  /** Deletes a process's deliveries, messages, inbox rows, tasks, outbox records, state values and uploaded files, then its row (the sweeper). */
  deleteProcessRows(pid: string): Promise<void>;

  // ---- tasks ----
  /** The tasks of the processes `pids` (recovery loads them). */
  tasksOf(pids: readonly string[]): Promise<TaskRow[]>;
  /**
   * Acts waiting in `interrupted` that have no inbox row, earliest start first, `limit` of them after
   * skipping `offset` (the inbox's backfill of tasks written before the inbox table).
   */
  interruptedActsWithoutInbox(offset: number, limit: number): Promise<TaskRow[]>;


  // ---- messages ----
  /** The `created` act messages of the tasks `tasks` (the inbox: what each open task asks). */
  createdActMessagesOf(tasks: readonly TaskRef[]): Promise<MessageRow[]>;
  /** Messages of process `pid` created at or after `since`, oldest first, at most `limit` (live catch-up). */
  processMessagesSince(pid: string, since: number, limit: number): Promise<MessageRow[]>;

  // ---- deliveries ----
  /** The `created` deliveries of one task (settled when an action ends its wait). */
  createdDeliveriesOfTask(pid: string, tid: string): Promise<DeliveryRow[]>;
  /** `created` deliveries on the channels `channels` last sent at or before `sentBy`, least recently sent first, at most `limit` (re-sending). */
  dueDeliveries(channels: readonly string[], sentBy: number, limit: number): Promise<DeliveryRow[]>;
  /**
   * Changes a `created` delivery whose `retry_times` is still `was_retry_times` (one atomic
   * statement): a remote worker's lease or answer (runtime/workers/); whether it changed.
   */
  leaseDelivery(lease: DeliveryLease): Promise<boolean>;
  /** Whether process `pid` has a delivery still waiting for an ack (`created`) or a redo (`error`). */
  hasUnsettledDeliveries(pid: string): Promise<boolean>;
  /** The deliveries in `error`. */
  failedDeliveries(): Promise<DeliveryRow[]>;
  /** Deletes the deliveries in `error`, of process `pid` or of all; returns how many. */
  deleteFailedDeliveries(pid?: string): Promise<number>;
  /** How many deliveries are in `status` (the backlog on health pages and metrics). */
  countDeliveries(status: DeliveryStatus): Promise<number>;

  // ---- events (triggers) and model versions ----
  /** The triggers of model `mid`. */
  triggersOfModel(mid: string): Promise<EventRow[]>;
  /** Enabled schedule triggers whose `next_run` is set and at or before `now`, earliest first, at most `limit`. */
  dueSchedules(now: number, limit: number): Promise<EventRow[]>;
  /** The enabled schedule trigger with the earliest `next_run` after `after` (0: any set one); the schedule timer's wake time. */
  nextSchedule(after: number): Promise<EventRow | undefined>;
  /** Deletes the triggers of model `mid`; returns how many. */
  deleteTriggersOfModel(mid: string): Promise<number>;
  /** The deployed versions of model `mid`, lowest `ver` first. */
  versionsOfModel(mid: string): Promise<ModelVersionRow[]>;
  /** Deletes the versions of model `mid`; returns how many. */
  deleteVersionsOfModel(mid: string): Promise<number>;

  // ---- ops (the outbox) and instances ----
  /** Outbox records of `type` not yet `done`, oldest first (recovery). */
  openOutboxRecords(type: OpType): Promise<OpRow[]>;
  /** Whether process `pid` has an outbox record not yet `done` (the stuck check). */
  hasOpenOutboxRecords(pid: string): Promise<boolean>;
  /** `pending` relay records, oldest first, at most `limit` (relay.ts). */
  pendingRelays(limit: number): Promise<OpRow[]>;
  /** `pending` exec records (lane overflow) last updated at or before `updatedBy`, oldest first, at most `limit`. */
  stalePendingExecs(updatedBy: number, limit: number): Promise<OpRow[]>;
  /** Deletes the instance rows whose lease ended before `before`; returns how many. */
  deleteInstancesLapsedBefore(before: number): Promise<number>;

  // ---- start claims (idempotency keys in flight) ----
  /** Inserts `claim` unless its key is claimed already (one atomic statement); whether it was inserted. */
  claimStartKey(claim: StartClaimRow): Promise<boolean>;
  /** Deletes the claim of `claim.id` if it is still `claim` (same instance and claim time); whether it did. */
  deleteStartClaim(claim: StartClaimRow): Promise<boolean>;
}

/** The writes of a write-only batch gathered ahead of it (Store.gatherWrites); only the store that made them reads them. */
export interface GatheredWrites {
  readonly gatheredBy: object;
}

/** The processes a guarded write-only batch must still own (Store.writeOnlyBatch). */
export interface WriteGuard {
  owner: string;
  pids: readonly string[];
  /**
   * Of `pids`, processes the batch starts under a pid their caller chose: their procs row must not
   * exist yet. One that does is found like a process of another instance (nothing is written).
   */
  fresh?: readonly string[];
}

export interface Store {
  models: Collection<ModelRow>;
  modelVersions: Collection<ModelVersionRow>;
  procs: Collection<ProcRow>;
  tasks: Collection<TaskRow>;
  messages: Collection<MessageRow>;
  deliveries: Collection<DeliveryRow>;
  events: Collection<EventRow>;
  packages: Collection<PackageRow>;
  /** The outbox (spec 5.2). */
  ops: Collection<OpRow>;
  /** Running engine instances and their leases. */
  instances: Collection<InstanceRow>;
  /** Idempotency keys whose start is in flight (start-keys.ts). */
  startClaims: Collection<StartClaimRow>;
  /** Open inbox tasks by who may see them (the read model's inbox). */
  inbox: Collection<InboxRow>;
  /** Values of `acts.app.state` acts, per process (when no Redis holds them). */
  states: Collection<StateRow>;
  /** Files uploaded for interrupt acts' answers, per process (file-rows.ts). */
  files: Collection<FileRow>;
  /** The fixed queries by name; inside a batch, those of the batch's transaction. */
  readonly queries: StoreQueries;
  /** Which backend holds the rows; absent means a single-process store (like `memory`). */
  readonly backend?: 'memory' | 'sqlite' | 'postgresql';
  /**
   * Atomically makes `owner` the owner of up to `limit` procs rows whose `state` is one of
   * `states` and whose owner is null, unknown to `instances`, or an instance whose lease ended
   * before `now` — never rows of a live other instance; rows `owner` already owns are not
   * included. Oldest `timestamp` first. Returns the ids claimed. On PostgreSQL concurrent claims
   * skip each other's rows (`FOR UPDATE SKIP LOCKED`), so a row goes to one claimant. `among`:
   * only rows with these ids (subflow children of processes being loaded).
   */
  claimProcesses(owner: string, now: number, states: readonly string[], limit: number, among?: readonly string[]): Promise<string[]>;
  /**
   * The fence of a write (instances.ts): of `pids`, the ones whose procs row exists and names an
   * owner other than `owner` — processes another instance took over —, and the `fresh` ones
   * (processes being started) whose row exists at all. Inside a batch on PostgreSQL
   * the rows stay locked until the batch ends, so no claim can take them between this check and
   * the batch's commit.
   */
  fenceProcesses(owner: string, pids: readonly string[], fresh?: readonly string[]): Promise<string[]>;
  /**
   * Optional cross-instance wake-ups (PostgreSQL NOTIFY/LISTEN). `notify` inside a batch is
   * delivered when the batch commits (not at all when it rolls back); `listen` calls `fn` for each
   * notification on `topic`, from any instance, until the returned function is called. Delivery is
   * best effort: a listener must also find the work by polling.
   */
  notify?(topic: string, payload: string): Promise<void>;
  listen?(topic: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Single-engine stores that other processes can open too (SQLite): takes the store's engine
   * lock, held until `releaseEngineLock()` or `close()` — or until the process dies, however it
   * dies (the operating system drops the lock). False when another engine holds it, in another
   * process or through another store (or an earlier `acquireEngineLock()`) in this one.
   */
  acquireEngineLock?(): Promise<boolean>;
  releaseEngineLock?(): Promise<void>;
  /**
   * Shared stores (PostgreSQL): takes the instance lock of `instance` (one per store), held on a
   * connection of its own until released or closed — or until the process dies, however it dies
   * (the database drops it with the connection). False while another session holds it (a live
   * engine has that id). `onTrouble` hears when the lock was lost and could not be taken again.
   */
  acquireInstanceLock?(instance: string, onTrouble?: (message: string) => void): Promise<boolean>;
  /** Whether any session holds the instance lock of `instance`: that instance's process is alive. */
  instanceLockHeld?(instance: string): Promise<boolean>;
  releaseInstanceLock?(): Promise<void>;
  /**
   * Runs `fn` against a store bound to ONE transaction: everything `fn` writes through `tx` lands
   * together, or (when `fn` rejects) not at all, and the rejection is passed on. A batch inside a
   * batch runs in the same transaction. Use only `tx` inside `fn`: the SQL stores refuse calls to
   * the outer store made from `fn`'s async context while the batch is open (on SQLite they would
   * wait for the batch that waits for them), and `tx` after the batch ended. Other callers of the
   * outer store are not affected (on SQLite they wait until the batch ends). The SQL stores queue
   * `tx` upserts and write them as multi-row statements before the next other operation on that
   * collection and before commit. MemoryStore runs `fn` on itself, without rollback.
   */
  batch(fn: (tx: Store) => Promise<void>): Promise<void>;
  /**
   * `batch` for work that only writes: upserts, creates, updates and deletes by id, named queries
   * and `notify` — reads (find, exists, query) and `deleteWhere` through `tx` throw. A store that
   * can run such a batch cheaper than a `batch` has it (PostgreSQL: on a connection of its own,
   * without Prisma's transaction machinery); the store writer's batches use it.
   * On SQLite `fn` may run twice: its writes are first gathered for the store's write thread,
   * and when it uses an operation that needs the transaction (a read, a create…) it runs again,
   * from the start, on the store's connection — so it must only write what it was given.
   * `guard`: the batch is fenced first (fenceProcesses, locked until it ends) — when another
   * instance owns any of `guard.pids` (or the row of a `guard.fresh` pid exists), nothing is
   * written and those pids are the result; otherwise the result is `[]`.
   */
  writeOnlyBatch?(fn: (tx: Store) => Promise<void>, guard?: WriteGuard): Promise<string[]>;
  /**
   * Runs the `fn` of a future write-only batch now, gathering its writes (rows checked and
   * converted, nothing sent), so that `writeGathered` later only encodes and sends them: the store
   * writer gathers a batch while the one before it is still being written (PostgreSQL). Resolves
   * undefined — never rejects — when `fn` failed or used what only its transaction can do (a
   * statement that cannot wait for the end, such as `notify`): `writeOnlyBatch` then runs it.
   * `fn` must only write what it was given, as for `writeOnlyBatch`.
   */
  gatherWrites?(fn: (tx: Store) => Promise<void>): Promise<GatheredWrites | undefined>;
  /**
   * Writes the writes of several `gatherWrites` calls, in that order, as ONE write-only batch:
   * the same rows and result as `writeOnlyBatch` with their `fn`s run one after another.
   */
  writeGathered?(gathered: readonly GatheredWrites[], guard?: WriteGuard): Promise<string[]>;
  /**
   * How many `writeOnlyBatch` / `writeGathered` calls may be under way at once because the store
   * commits them in the order they were called (SQLite's write thread, PostgreSQL's pipelined
   * connection); absent or 1: one after another. The writer makes a call whose `guard` is set
   * alone (the next once it settled), and on a store that gathers writes (`gatherWrites`) also a
   * `writeOnlyBatch` of writes that could not be gathered.
   */
  readonly pipelinedWrites?: number;
  /**
   * The collection of one of the server's tables (`audit`, `users` …: server-rows.ts) on this
   * store — or, called on the `tx` of `batch` / `writeOnlyBatch`, in that batch, so the server's
   * rows can ride in the engine's transactions. Absent, or undefined for a name it does not
   * know, on a store opened without the server's tables.
   */
  serverCollection?(name: string): Collection<{ id: string }> | undefined;
  close(): Promise<void>;
}

/** The names of the store's collections (`procs`, `tasks` …). */
export type CollectionName = { [K in keyof Store]-?: Store[K] extends Collection<infer _Row> ? K : never }[keyof Store];
