/**
 * `Store` on Prisma (SQLite or PostgreSQL): one PrismaCollection per table, `batch` as one
 * interactive transaction (on SQLite run straight on the client's connection: sqlite-batch.ts).
 *
 * State: the Prisma client (owned: `close()` disconnects it), a `closed` flag, and for SQLite a
 * Gate that keeps single operations out of an open batch transaction (one connection) and the
 * engine lock (engine-lock.ts; free → held by the engine that registered → free at release/close). Inside a
 * batch, an AsyncLocalStorage marks the outer store as busy so that using it instead of the `tx`
 * store fails loudly (it would deadlock on SQLite and escape the transaction on PostgreSQL). That
 * check is an assertion for the test runner (VITEST set): on Node 20 an AsyncLocalStorage puts
 * async hooks on every promise of the process once used, ~3 % of the engine's CPU under load.
 * Upserts inside a batch are queued and written as multi-row statements (upsert-buffer.ts). The
 * named queries (`queries`) are the statement files of sql/, run on the same session (sql/runner.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ActError } from '../engine/errors.ts';
import type {
  Collection,
  CollectionName,
  GatheredWrites,
  DeliveryRow,
  EventRow,
  InboxRow,
  InstanceRow,
  StartClaimRow,
  StateRow,
  FileRow,
  MessageRow,
  ModelRow,
  ModelVersionRow,
  OpRow,
  PackageRow,
  ProcRow,
  Store,
  StoreQueries,
  TaskRow,
  WriteGuard,
} from './contract/types.ts';
import { isServerCollectionName, TABLES, type Table } from './columns.ts';
import { guardedBatch } from './contract/guarded-batch.ts';
import { Gate } from './gate.ts';
import { PrismaCollection, type Delegate, type Session } from './prisma-collection.ts';
import { claimProcessesSql } from './sql/claim-processes.ts';
import { fenceProcessesSql, lostOf } from './sql/fence-processes.ts';
import { bindQueries, sqlRunner, type SqlRunner } from './sql/runner.ts';
import * as storeQueries from './sql/store-queries.ts';
import { SqliteEngineLock } from './engine-lock.ts';
import { PgInstanceLock } from './pg-instance-lock.ts';
import { NEEDS_TRANSACTION, NeedsTransaction, SqliteWriteBatch } from './sqlite-write-batch.ts';
import type { SqliteWriteThread } from './sqlite-write-thread.ts';
import { PgListener } from './pg-listener.ts';
import { lockHeldSql } from './sql/instance-lock.ts';
import type { SqlBackend } from './sql-backend.ts';
import { UpsertBuffer, type ExecuteRaw } from './upsert-buffer.ts';
import { executeOn, inSqliteTransaction, queryOn } from './sqlite-batch.ts';
import { PgGatheredWrites, PgWriteBatch, refuseAhead, WRITE_ONLY, type PgWrites } from './pg-write-batch.ts';
import type { DbRecord } from './mapping.ts';
import type { SqliteConnectionHandle } from './sqlite-connection.ts';
import type { SqliteCheckpointer } from './sqlite-checkpointer.ts';

/** The part of a Prisma client (or transaction client) the store uses. */
export interface PrismaLike {
  $transaction<R>(fn: (tx: PrismaLike) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
  $disconnect(): Promise<void>;
}

export interface PrismaStoreOptions {
  /** PostgreSQL: the connection URL, for the dedicated connections of `listen` and the instance lock. */
  listenUrl?: string;
  /** How long a batch may wait to start (PostgreSQL: for a pooled connection), ms. Default 10 s. */
  batchMaxWaitMs?: number;
  /** How long a batch transaction may stay open before Prisma rolls it back, ms. Default 60 s. */
  batchTimeoutMs?: number;
  /** SQLite: the file of the engine lock (engine-lock.ts); without it the store has no engine lock. */
  engineLockFile?: string;
  /** SQLite: the client's connection, for batches run on it directly (sqlite-batch.ts); without it they are Prisma transactions. */
  sqliteConnection?: SqliteConnectionHandle;
  /** SQLite: the thread that checkpoints the WAL (sqlite-checkpointer.ts); the store stops it. */
  checkpointer?: SqliteCheckpointer;
  /** SQLite: the thread that writes the store writer's batches (sqlite-write-thread.ts); the store stops it. */
  sqliteWriteThread?: SqliteWriteThread;
  /**
   * PostgreSQL: connections of the store's own for `writeOnlyBatch` (pg-write-batch.ts) and the
   * statements outside batches, and the pipelined one (pg-pipeline.ts); the store ends them.
   */
  pgWrites?: PgWrites;
}

interface BatchMark {
  owner: PrismaStore;
  open: boolean;
}

/** Set under the test runner only (see the header): marks the batch the current code runs in. */
const batchContext = process.env.VITEST ? new AsyncLocalStorage<BatchMark>() : undefined;

/** SQLite: the store writer's batches handed to the write thread before the oldest is written. */
const SQLITE_PIPELINE = 4;
/**
 * PostgreSQL: the store writer's batches sent on the pipelined connection before the oldest
 * answered. bench:peers, 3,000 workflows, 4 alternating runs: 2,009–2,136 workflows/s against
 * 1,730–1,840 one at a time on `pg`; 3 alternating runs of depths 2, 4 and 8 within each other's
 * range (2,043–2,127, 1,762–2,276, 2,105–2,183).
 */
const PG_PIPELINE = 4;

function delegateOf(client: unknown, name: string): Delegate {
  const delegate = (client as Record<string, Delegate | undefined>)[name];
  if (!delegate) throw new ActError('internal', `the Prisma client has no model delegate '${name}' (regenerate it: npm run db:generate)`);
  return delegate;
}

abstract class PrismaStoreBase implements Store {
  readonly models: PrismaCollection<ModelRow>;
  readonly modelVersions: PrismaCollection<ModelVersionRow>;
  readonly procs: PrismaCollection<ProcRow>;
  readonly tasks: PrismaCollection<TaskRow>;
  readonly messages: PrismaCollection<MessageRow>;
  readonly deliveries: PrismaCollection<DeliveryRow>;
  readonly events: PrismaCollection<EventRow>;
  readonly packages: PrismaCollection<PackageRow>;
  readonly ops: PrismaCollection<OpRow>;
  readonly instances: PrismaCollection<InstanceRow>;
  readonly startClaims: PrismaCollection<StartClaimRow>;
  readonly inbox: PrismaCollection<InboxRow>;
  readonly states: PrismaCollection<StateRow>;
  readonly files: PrismaCollection<FileRow>;
  private runnerMade: SqlRunner | undefined;
  private queriesMade: StoreQueries | undefined;

  constructor(private readonly session: Session) {
    const col = <T extends { id: string }>(name: CollectionName) => new PrismaCollection<T>(TABLES[name], session);
    this.models = col('models');
    this.modelVersions = col('modelVersions');
    this.procs = col('procs');
    this.tasks = col('tasks');
    this.messages = col('messages');
    this.deliveries = col('deliveries');
    this.events = col('events');
    this.packages = col('packages');
    this.ops = col('ops');
    this.instances = col('instances');
    this.startClaims = col('startClaims');
    this.inbox = col('inbox');
    this.states = col('states');
    this.files = col('files');
  }

  /** Runs the statement files of sql/ on this store's session (the server's named queries use it too). */
  get runner(): SqlRunner {
    return (this.runnerMade ??= sqlRunner(this.session));
  }

  /** The named queries, bound at their first use: a batch's store is made for every batch, and most use none. */
  get queries(): StoreQueries {
    return (this.queriesMade ??= bindQueries(this.runner, storeQueries));
  }

  /**
   * A collection on another table of the same database, run like this store's own (same client or
   * transaction, same SQLite gate and checks): the server's tables (server-store.ts).
   */
  collection<T extends { id: string }>(table: Table): PrismaCollection<T> {
    return new PrismaCollection<T>(table, this.session);
  }

  /** Store.serverCollection: a server table's collection on this store's session (in a batch: its transaction). */
  serverCollection(name: string): Collection<{ id: string }> | undefined {
    return isServerCollectionName(name) ? this.collection(TABLES[name]) : undefined;
  }

  async claimProcesses(owner: string, now: number, states: readonly string[], limit: number, among?: readonly string[]): Promise<string[]> {
    if (limit <= 0 || states.length === 0 || among?.length === 0) return [];
    const { sql, params } = claimProcessesSql(this.session.backend, owner, now, states, limit, among);
    const rows = await this.session.run(TABLES.procs, () => this.session.query(sql, params));
    return rows.map((row) => String(row.id));
  }

  async fenceProcesses(owner: string, pids: readonly string[], fresh: readonly string[] = []): Promise<string[]> {
    if (pids.length === 0) return [];
    const { sql, params } = fenceProcessesSql(this.session.backend, pids);
    const rows = await this.session.run(TABLES.procs, () => this.session.query(sql, params));
    return lostOf(rows, owner, fresh);
  }

  /** Whether a session holds the instance lock of `instance` (Store.instanceLockHeld); PostgreSQL only. */
  get instanceLockHeld(): Store['instanceLockHeld'] {
    if (this.session.backend !== 'postgresql') return undefined;
    return async (instance) => {
      const { sql, params } = lockHeldSql(instance);
      const rows = await this.session.run(TABLES.instances, () => this.session.query(sql, params));
      return rows[0]?.held === true;
    };
  }

  async notify(topic: string, payload: string): Promise<void> {
    if (this.session.backend !== 'postgresql') return;
    await this.session.run(TABLES.ops, () => this.session.execute('SELECT pg_notify($1, $2)', [topic, payload]));
  }

  abstract batch(fn: (tx: Store) => Promise<void>): Promise<void>;
  abstract close(): Promise<void>;
}

/**
 * The store handed to a batch's `fn`: every operation runs in the batch's transaction; upserts are
 * queued in an UpsertBuffer and written per table before the next other operation on that table
 * and before commit.
 */
class TxStore extends PrismaStoreBase {
  constructor(
    readonly backend: SqlBackend,
    tx: PrismaLike,
    mark: BatchMark,
    readonly buffer: UpsertBuffer,
    execute: ExecuteRaw = (sql, params) => tx.$executeRawUnsafe(sql, ...params),
    query: (sql: string, params: unknown[]) => Promise<DbRecord[]> = (sql, params) => tx.$queryRawUnsafe(sql, ...params),
  ) {
    const check = () => {
      if (!mark.open) throw new ActError('internal', 'this batch store was used after its batch ended');
    };
    super({
      backend,
      delegate: (name) => delegateOf(tx, name),
      execute,
      query,
      run: async (table, op) => {
        check();
        await buffer.flush(table);
        return op();
      },
      defer: (table, record) => {
        check();
        buffer.add(table, record);
        return true;
      },
      deferPairDeletes: (table, pairs) => {
        check();
        buffer.deletePairs(table, pairs);
        return true;
      },
    });
  }

  /** A batch inside a batch joins the open transaction. */
  async batch(fn: (tx: Store) => Promise<void>): Promise<void> {
    await fn(this);
  }

  async close(): Promise<void> {
    throw new ActError('internal', 'close the outer store, not the store of a batch');
  }
}

/** How the store's single statements run: straight on the driver, or through Prisma's raw queries. */
interface Statements {
  execute(sql: string, params: unknown[]): Promise<number>;
  query(sql: string, params: unknown[]): Promise<DbRecord[]>;
}

/**
 * The store's statements outside batches (single writes, reads by id, named queries) skip
 * Prisma's machinery, which cost more than the statements: on SQLite they run on the client's
 * own connection (the session's gate keeps them out of an open batch), on PostgreSQL on the
 * store's own pool. Through Prisma's raw queries before the SQLite client opened its connection.
 */
function statementsOf(client: PrismaLike, options: PrismaStoreOptions): Statements {
  const viaPrisma: Statements = {
    execute: (sql, params) => client.$executeRawUnsafe(sql, ...params),
    query: (sql, params) => client.$queryRawUnsafe<DbRecord[]>(sql, ...params),
  };
  const { sqliteConnection: connection } = options;
  const pool = options.pgWrites?.pool;
  if (pool) {
    return {
      execute: async (sql, params) => (await pool.query(sql, params)).rowCount ?? 0,
      query: async (sql, params) => (await pool.query(sql, params)).rows as DbRecord[],
    };
  }
  if (!connection) return viaPrisma;
  return {
    execute: async (sql, params) => (connection.db?.open ? executeOn(connection.db, sql, params) : viaPrisma.execute(sql, params)),
    query: async (sql, params) => (connection.db?.open ? queryOn(connection.db, sql, params) : viaPrisma.query(sql, params)),
  };
}

export class PrismaStore extends PrismaStoreBase {
  private closed = false;
  private readonly gate: Gate | undefined;
  private listener: PgListener | undefined;
  private instanceLock: PgInstanceLock | undefined;
  private readonly engineLock: SqliteEngineLock | undefined;

  /**
   * @param client a connected Prisma client of the backend's provider; the store owns it.
   * @param appliedMigrations the migrations applied when the store was opened (for callers and tests).
   */
  constructor(
    readonly backend: SqlBackend,
    private readonly client: PrismaLike,
    private readonly options: PrismaStoreOptions = {},
    readonly appliedMigrations: readonly string[] = [],
  ) {
    const gate = backend === 'sqlite' ? new Gate() : undefined;
    const guard = { check: (): void => undefined };
    const statements = statementsOf(client, options);
    super({
      backend,
      delegate: (name) => delegateOf(client, name),
      execute: statements.execute,
      query: statements.query,
      run: async (_table, op) => {
        guard.check();
        // on SQLite after the write thread wrote what it was handed: the two connections never
        // wait for each other's lock, and a read sees every write handed over before it
        const thread = options.sqliteWriteThread;
        return gate ? gate.shared(thread ? () => thread.idle().then(op) : op) : op();
      },
      defer: () => false,
      readRow: async (sql, params) => (await statements.query(sql, params))[0],
    });
    guard.check = () => this.check();
    this.gate = gate;
    this.engineLock = backend === 'sqlite' && options.engineLockFile ? new SqliteEngineLock(options.engineLockFile) : undefined;
  }

  /** SQLite with a lock file: the engine lock (Store.acquireEngineLock); absent otherwise. */
  get acquireEngineLock(): Store['acquireEngineLock'] {
    const lock = this.engineLock;
    if (!lock) return undefined;
    return async () => {
      this.check();
      return lock.tryAcquire();
    };
  }

  get releaseEngineLock(): Store['releaseEngineLock'] {
    const lock = this.engineLock;
    return lock ? async () => lock.release() : undefined;
  }

  /** PostgreSQL: the instance lock (Store.acquireInstanceLock, pg-instance-lock.ts) on a connection of its own. */
  get acquireInstanceLock(): Store['acquireInstanceLock'] {
    const url = this.options.listenUrl;
    if (this.backend !== 'postgresql' || !url) return undefined;
    return (instance, onTrouble) => {
      this.check();
      this.instanceLock ??= new PgInstanceLock(url, onTrouble);
      return this.instanceLock.tryAcquire(instance);
    };
  }

  get releaseInstanceLock(): Store['releaseInstanceLock'] {
    return this.backend === 'postgresql' ? async () => this.instanceLock?.release() : undefined;
  }

  async batch(fn: (tx: Store) => Promise<void>): Promise<void> {
    this.check();
    const connection = this.options.sqliteConnection;
    if (connection && this.gate) {
      await this.gate.exclusive(() => this.sqliteBatch(connection, fn));
      return;
    }
    // PostgreSQL: after the batches sent on the pipelined connection before it
    await this.options.pgWrites?.pipeline.drained();
    const run = () =>
      this.client.$transaction(
        async (tx) => {
          const buffer = new UpsertBuffer(this.backend, (sql, params) => tx.$executeRawUnsafe(sql, ...params));
          await this.runBatch(fn, (mark) => new TxStore(this.backend, tx, mark, buffer), buffer);
        },
        { maxWait: this.options.batchMaxWaitMs ?? 10_000, timeout: this.options.batchTimeoutMs ?? 60_000 },
      );
    await (this.gate ? this.gate.exclusive(run) : run());
  }

  /**
   * SQLite with its write thread, PostgreSQL with its pipelined connection: batches handed to
   * them commit in that order (Store.pipelinedWrites).
   */
  get pipelinedWrites(): number {
    if (this.options.pgWrites) return PG_PIPELINE;
    return this.options.sqliteWriteThread?.alive ? SQLITE_PIPELINE : 1;
  }

  /**
   * PostgreSQL: a write-only batch on a connection of the store's own (pg-write-batch.ts). SQLite:
   * written by the store's write thread (sqlite-write-batch.ts), or — when `fn` needs the
   * transaction — run again as a batch on the store's connection. Elsewhere `batch`, fenced inside.
   */
  async writeOnlyBatch(fn: (tx: Store) => Promise<void>, guard?: WriteGuard): Promise<string[]> {
    const { pgWrites, sqliteWriteThread: thread, sqliteConnection: connection } = this.options;
    if (!pgWrites && thread?.alive && connection && this.gate && !guard) {
      this.check();
      // the gate only while `fn` gathers its statements (or, when it needs a transaction, while it
      // runs on the store's connection); the thread writes them after it was released
      const handedOver = await this.gate.exclusive(() => this.threadBatch(thread, connection, fn));
      await handedOver.written;
      return [];
    }
    if (!pgWrites) return guardedBatch(this, fn, guard);
    this.check();
    const batch = new PgWriteBatch(pgWrites, guard);
    const buffer = new UpsertBuffer(this.backend, batch.execute);
    const txStore = (mark: BatchMark) => new TxStore(this.backend, WRITE_ONLY as PrismaLike, mark, buffer, batch.execute, batch.query);
    return batch.run(buffer, () => this.runBatch(fn, txStore, buffer, false));
  }

  /** PostgreSQL with its write pool: Store.gatherWrites; absent otherwise. */
  get gatherWrites(): Store['gatherWrites'] {
    return this.options.pgWrites ? (fn) => this.gather(fn) : undefined;
  }

  /** PostgreSQL with its write pool: Store.writeGathered; absent otherwise. */
  get writeGathered(): Store['writeGathered'] {
    const pgWrites = this.options.pgWrites;
    return pgWrites ? (gathered, guard) => this.writeGatheredOn(pgWrites, gathered, guard) : undefined;
  }

  /** PostgreSQL: `fn`'s writes gathered ahead of its batch (Store.gatherWrites), or undefined. */
  private async gather(fn: (tx: Store) => Promise<void>): Promise<GatheredWrites | undefined> {
    try {
      this.check();
      const buffer = new UpsertBuffer(this.backend, refuseAhead);
      await this.runBatch(fn, (mark) => new TxStore(this.backend, WRITE_ONLY as PrismaLike, mark, buffer, refuseAhead, refuseAhead), buffer, false);
      return new PgGatheredWrites(this, buffer.drain());
    } catch {
      return undefined; // writeOnlyBatch runs `fn` again, and reports what failed
    }
  }

  /** PostgreSQL: gathered writes as one write-only batch (Store.writeGathered). */
  private writeGatheredOn(pgWrites: PgWrites, gathered: readonly GatheredWrites[], guard?: WriteGuard): Promise<string[]> {
    this.check();
    const drained = gathered.map((writes) => {
      if (!(writes instanceof PgGatheredWrites) || writes.gatheredBy !== this) throw new ActError('internal', 'these writes were gathered by another store');
      return writes.drained;
    });
    return new PgWriteBatch(pgWrites, guard).runGathered(drained);
  }

  /**
   * SQLite: `fn`'s writes gathered as statements and handed to the write thread (the result: their
   * write); or `fn` again on the store's connection when it needs the transaction — once the
   * thread wrote everything handed over before (the result: done).
   */
  private async threadBatch(thread: SqliteWriteThread, connection: SqliteConnectionHandle, fn: (tx: Store) => Promise<void>): Promise<{ written: Promise<void> }> {
    const batch = new SqliteWriteBatch();
    const buffer = new UpsertBuffer(this.backend, batch.gather);
    const txStore = (mark: BatchMark) => new TxStore(this.backend, NEEDS_TRANSACTION as PrismaLike, mark, buffer, batch.refuse, batch.refuseQuery);
    try {
      await this.runBatch(fn, txStore, buffer);
    } catch (err) {
      if (!(err instanceof NeedsTransaction)) throw err;
      await this.sqliteBatch(connection, fn);
      return { written: Promise.resolve() };
    }
    return { written: batch.statements.length > 0 ? thread.run(batch.statements) : Promise.resolve() };
  }

  /**
   * SQLite: the batch straight on the client's connection, its writes as cached prepared
   * statements (sqlite-batch.ts) — once the write thread wrote everything handed over before.
   */
  private async sqliteBatch(connection: SqliteConnectionHandle, fn: (tx: Store) => Promise<void>): Promise<void> {
    await this.options.sqliteWriteThread?.idle();
    // the client opens its connection at its first query
    if (!connection.db?.open) await this.client.$queryRawUnsafe('SELECT 1');
    const db = connection.db;
    if (!db) throw new ActError('internal', 'the SQLite store has no open connection');
    const execute: ExecuteRaw = async (sql, params) => executeOn(db, sql, params);
    const buffer = new UpsertBuffer(this.backend, execute);
    await inSqliteTransaction(db, () => this.runBatch(fn, (mark) => new TxStore(this.backend, this.client, mark, buffer, execute), buffer));
  }

  /** Runs a batch's `fn` on its transaction's store, then (`flush`) writes the upserts it queued. */
  private async runBatch(fn: (tx: Store) => Promise<void>, txStore: (mark: BatchMark) => TxStore, buffer: UpsertBuffer, flush = true): Promise<void> {
    const mark: BatchMark = { owner: this, open: true };
    try {
      await (batchContext ? batchContext.run(mark, () => fn(txStore(mark))) : fn(txStore(mark)));
      if (flush) await buffer.flush();
    } finally {
      mark.open = false;
    }
  }

  /** PostgreSQL LISTEN (see Store.listen); absent on SQLite, which has one instance only. */
  get listen(): Store['listen'] {
    const url = this.options.listenUrl;
    if (this.backend !== 'postgresql' || !url) return undefined;
    return (topic, fn) => {
      this.check();
      this.listener ??= new PgListener(url);
      return this.listener.listen(topic, fn);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.listener?.close();
    await this.instanceLock?.close();
    await this.options.pgWrites?.pipeline.close();
    await this.options.pgWrites?.pool.end();
    await this.options.sqliteWriteThread?.stop();
    await this.options.checkpointer?.stop();
    this.engineLock?.release();
    await this.client.$disconnect();
  }

  private check(): void {
    if (this.closed) throw new ActError('internal', `the ${this.backend} store is closed`);
    const mark = batchContext?.getStore();
    if (mark?.open && mark.owner === this) {
      throw new ActError('internal', 'the outer store was used inside its own batch: use the store passed to batch(fn)');
    }
  }
}
