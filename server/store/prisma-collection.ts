/**
 * One store collection on one SQL table through Prisma, with the in-memory store's contract:
 * create rejects an existing id, update rejects a missing one, upsert and delete never reject for
 * existence, queries filter / order / page in SQL (see where.ts) and count every match.
 *
 * State: none of its own; the session it runs on says which Prisma client or transaction to use.
 */
import { ActError } from '../engine/errors.ts';
import { compileFilter, compileQuery } from '../engine/store/query.ts';
import type { Collection, PageData, Query, QueryFilter } from '../engine/store/types.ts';
import type { Table } from './columns.ts';
import { fromRecord, toRecord, updateData, type DbRecord } from './mapping.ts';
import { nextSeq } from './seq.ts';
import { filterWhere, orderByOf, type Where } from './where.ts';

/** The part of a Prisma model delegate the store uses (both providers' clients have it). */
export interface Delegate {
  findUnique(args: { where: Where; select?: Record<string, boolean> }): Promise<DbRecord | null>;
  findMany(args: { where?: Where; orderBy?: Where[]; skip?: number; take?: number }): Promise<DbRecord[]>;
  count(args: { where?: Where }): Promise<number>;
  createMany(args: { data: DbRecord[]; skipDuplicates?: boolean }): Promise<{ count: number }>;
  updateMany(args: { where: Where; data: DbRecord }): Promise<{ count: number }>;
  upsert(args: { where: Where; create: DbRecord; update: DbRecord; select: Record<string, boolean> }): Promise<unknown>;
  deleteMany(args: { where: Where }): Promise<{ count: number }>;
}

/** Where a collection's operations run: a client outside a batch, or the batch's transaction. */
export interface Session {
  readonly backend: 'sqlite' | 'postgresql';
  delegate(name: string): Delegate;
  /**
   * Runs one operation on a table (checks, serialisation and writing the table's queued upserts
   * first are the session's business).
   */
  run<T>(table: Table, op: () => Promise<T>): Promise<T>;
  /** Queues an upsert to be written later in the same transaction; false when the session cannot. */
  defer(table: Table, record: DbRecord): boolean;
}

const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'P2002';

export class PrismaCollection<T extends { id: string }> implements Collection<T> {
  constructor(
    readonly table: Table,
    private readonly session: Session,
  ) {}

  private get db(): Delegate {
    return this.session.delegate(this.table.delegate);
  }

  exists(id: string): Promise<boolean> {
    return this.session.run(this.table, async () => (await this.db.findUnique({ where: { id }, select: { id: true } })) !== null);
  }

  find(id: string): Promise<T | undefined> {
    return this.session.run(this.table, async () => {
      const record = await this.db.findUnique({ where: { id } });
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
    const id = record.id as string;
    const exists = (): never => {
      throw new ActError('internal', `${this.table.name} row '${id}' already exists`);
    };
    await this.session.run(this.table, async () => {
      if (this.session.backend === 'postgresql') {
        // ON CONFLICT DO NOTHING: a failing INSERT would abort an open PostgreSQL transaction.
        const { count } = await this.db.createMany({ data: [record], skipDuplicates: true });
        if (count === 0) exists();
        return;
      }
      try {
        await this.db.createMany({ data: [record] });
      } catch (err) {
        if (isUniqueViolation(err)) exists();
        throw err;
      }
    });
  }

  async update(row: T): Promise<void> {
    const record = toRecord(this.table, row);
    const id = record.id as string;
    await this.session.run(this.table, async () => {
      const { count } = await this.db.updateMany({ where: { id }, data: updateData(record) });
      if (count === 0) throw new ActError('internal', `${this.table.name} row '${id}' does not exist`);
    });
  }

  async upsert(row: T): Promise<void> {
    const record = toRecord(this.table, row);
    const id = record.id as string;
    const create = { ...record, seq: nextSeq() };
    if (this.session.defer(this.table, create)) return;
    await this.session.run(this.table, () => this.db.upsert({ where: { id }, create, update: updateData(record), select: { id: true } }));
  }

  delete(id: string): Promise<boolean> {
    return this.session.run(this.table, async () => (await this.db.deleteMany({ where: { id } })).count > 0);
  }

  async deleteWhere(filter: QueryFilter): Promise<number> {
    compileFilter(filter); // the memory store's validation and messages
    const where = filterWhere(this.table, filter, this.session.backend);
    return this.session.run(this.table, async () => (await this.db.deleteMany({ where })).count);
  }
}
