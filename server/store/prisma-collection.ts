/**
 * One store collection on one SQL table through Prisma, with the in-memory store's contract:
 * create rejects an existing id, update rejects a missing one, upsert and delete never reject for
 * existence, queries filter / order / page in SQL (see where.ts) and count every match. Queries
 * use Prisma's query API; single-row writes are plain statements through the same client
 * (statements.ts), several times faster, and reads by id run straight on the driver's connection
 * where the session has one (`readRow`).
 *
 * State: none of its own; the session it runs on says which Prisma client or transaction to use.
 */
import { ActError } from '../engine/errors.ts';
import { compileFilter, compileQuery } from './contract/query.ts';
import type { Collection, PageData, Query, QueryFilter, TaskRef } from './contract/types.ts';
import type { Table } from './columns.ts';
import { fromRecord, toRecord, type DbRecord } from './mapping.ts';
import { nextSeq } from './seq.ts';
import type { SqlBackend } from './sql-backend.ts';
import { deleteSql, insertParams, insertSql, selectByIdSql, updateParams, updateSql } from './statements.ts';
import { filterWhere, orderByOf, type Where } from './where.ts';

/** The part of a Prisma model delegate the store uses for reads (both providers' clients have it). */
export interface Delegate {
  findUnique(args: { where: Where; select?: Record<string, boolean> }): Promise<DbRecord | null>;
  findMany(args: { where?: Where; orderBy?: Where[]; skip?: number; take?: number }): Promise<DbRecord[]>;
  count(args: { where?: Where }): Promise<number>;
  deleteMany(args: { where: Where }): Promise<{ count: number }>;
}

/** Where a collection's operations run: a client outside a batch, or the batch's transaction. */
export interface Session {
  readonly backend: SqlBackend;
  delegate(name: string): Delegate;
  /** Runs a write statement (statements.ts); returns the number of rows it affected. */
  execute(sql: string, params: unknown[]): Promise<number>;
  /** Runs a statement that returns rows (`… RETURNING`). */
  query(sql: string, params: unknown[]): Promise<DbRecord[]>;
  /**
   * Runs one operation on a table (checks, serialisation and writing the table's queued upserts
   * first are the session's business).
   */
  run<T>(table: Table, op: () => Promise<T>): Promise<T>;
  /** Queues an upsert to be written later in the same transaction; false when the session cannot. */
  defer(table: Table, record: DbRecord): boolean;
  /** Queues the deletion of a table's rows of (pid, tid) pairs likewise; false (or absent) when the session cannot. */
  deferPairDeletes?(table: Table, pairs: readonly TaskRef[]): boolean;
  /**
   * Runs a statement that returns at most one row straight on the driver's connection, without
   * Prisma's machinery (reads by id on the hot path: a start's checks); absent where the session
   * has no such connection (its reads then go through Prisma's query API).
   */
  readRow?(sql: string, params: unknown[]): Promise<DbRecord | undefined>;
}

export class PrismaCollection<T extends { id: string }> implements Collection<T> {
  constructor(
    readonly table: Table,
    private readonly session: Session,
  ) {}

  private get db(): Delegate {
    return this.session.delegate(this.table.delegate);
  }

  exists(id: string): Promise<boolean> {
    const read = this.session.readRow;
    if (read) return this.session.run(this.table, async () => (await read(selectByIdSql(this.table, this.session.backend, true), [id])) !== undefined);
    return this.session.run(this.table, async () => (await this.db.findUnique({ where: { id }, select: { id: true } })) !== null);
  }

  find(id: string): Promise<T | undefined> {
    const read = this.session.readRow;
    return this.session.run(this.table, async () => {
      const record = read ? await read(selectByIdSql(this.table, this.session.backend), [id]) : await this.db.findUnique({ where: { id } });
      return record ? fromRecord<T>(this.table, record) : undefined;
    });
  }

  async query(query?: Query): Promise<PageData<T>> {
    const compiled = compileQuery(query); // the memory store's validation and messages
    const where = compiled.filter ? filterWhere(this.table, compiled.filter, this.session.backend) : {};
    const orderBy = orderByOf(this.table, compiled.order);
    const { offset, limit } = compiled;
    return this.session.run(this.table, async () => {
      const records = await this.db.findMany({ where, orderBy, skip: offset, take: limit });
      // A first page shorter than the limit holds every match: no separate count needed.
      const count = offset === 0 && records.length < limit ? records.length : await this.db.count({ where });
      return {
        count,
        page_num: Math.floor(offset / limit) + 1,
        page_count: Math.ceil(count / limit),
        page_size: limit,
        rows: records.map((record) => fromRecord<T>(this.table, record)),
      };
    });
  }

  async create(row: T): Promise<void> {
    const record = toRecord(this.table, row);
    record.seq = nextSeq();
    const sql = insertSql(this.table, this.session.backend, 1, 'ignore');
    await this.session.run(this.table, async () => {
      // ON CONFLICT DO NOTHING rather than a failing INSERT, which would abort an open PostgreSQL transaction.
      if ((await this.session.execute(sql, insertParams(this.table, record))) === 0) {
        throw new ActError('internal', `${this.table.name} row '${record.id as string}' already exists`);
      }
    });
  }

  async update(row: T): Promise<void> {
    const record = toRecord(this.table, row);
    const sql = updateSql(this.table, this.session.backend);
    await this.session.run(this.table, async () => {
      if ((await this.session.execute(sql, updateParams(this.table, record))) === 0) {
        throw new ActError('internal', `${this.table.name} row '${record.id as string}' does not exist`);
      }
    });
  }

  async upsert(row: T): Promise<void> {
    const record = toRecord(this.table, row);
    record.seq = nextSeq(); // used only when the row is new
    if (this.session.defer(this.table, record)) return;
    const sql = insertSql(this.table, this.session.backend, 1, 'replace');
    await this.session.run(this.table, () => this.session.execute(sql, insertParams(this.table, record)));
  }

  delete(id: string): Promise<boolean> {
    const sql = deleteSql(this.table, this.session.backend);
    return this.session.run(this.table, async () => (await this.session.execute(sql, [id])) > 0);
  }

  async deleteWhere(filter: QueryFilter): Promise<number> {
    compileFilter(filter); // the memory store's validation and messages
    const where = filterWhere(this.table, filter, this.session.backend);
    return this.session.run(this.table, async () => (await this.db.deleteMany({ where })).count);
  }
}
