/**
 * Coalesces the upserts of a batch into multi-row `INSERT … ON CONFLICT ("id") DO UPDATE`
 * statements (one round trip per table and chunk instead of one per row). On PostgreSQL the rows
 * go as one JSON parameter into a statement prepared once per table (upsertFromJsonSql): binding
 * hundreds of parameters, and planning a new statement text for every row count, cost more than
 * the rows themselves.
 *
 * Deletions of a table's rows by (pid, tid) — a task's inbox rows — are queued too; a table's
 * deletions are written before its upserts (so a row the batch writes again stays).
 *
 * State: per table, the queued records by id (a later upsert of the same id replaces the queued
 * data but keeps the first insertion order `seq`), and the (pid, tid) pairs whose rows go. Rows
 * are validated before they are queued, so a flush can only fail for database reasons, which
 * fail the whole batch anyway. The batch flushes a table before any other operation on it (reads
 * see the writes) and everything before commit.
 */
import { SEQ, type Table } from './columns.ts';
import type { TaskRef } from './contract/types.ts';
import type { DbRecord } from './mapping.ts';
import type { SqlBackend } from './sql-backend.ts';
import { deletePairs, insertColumns, insertParams, insertSql, upsertFromJsonSql } from './statements.ts';

/** Runs a write statement; `name`: a statement whose text never changes, which the driver may prepare once. */
export type ExecuteRaw = (sql: string, params: unknown[], name?: string) => Promise<number>;

/** Parameters per statement: below SQLite's 32766 and PostgreSQL's 65535. */
const MAX_PARAMS = 30_000;
const MAX_ROWS = 1_000;

/** PostgreSQL: records as the JSON parameter of upsertFromJsonSql / upsertBatchFromJsonSql (times and `seq` are numbers). */
export const recordsJson = (records: DbRecord[]): string => JSON.stringify(records);

/** What a buffer held, by table: the rows to upsert, the (pid, tid) pairs whose rows go. */
export interface Drained {
  upserts: Array<{ table: Table; records: DbRecord[] }>;
  deletions: Array<{ table: Table; pairs: TaskRef[] }>;
}

export class UpsertBuffer {
  private readonly pending = new Map<Table, Map<string, DbRecord>>();
  private readonly deletions = new Map<Table, TaskRef[]>();

  constructor(
    private readonly backend: SqlBackend,
    private readonly execute: ExecuteRaw,
  ) {}

  /** Queues a validated record (with its `seq`). */
  add(table: Table, record: DbRecord): void {
    let queued = this.pending.get(table);
    if (!queued) this.pending.set(table, (queued = new Map()));
    const id = record.id as string;
    const earlier = queued.get(id);
    queued.set(id, earlier ? { ...record, [SEQ]: earlier[SEQ] } : record);
  }

  /** Queues the deletion of `table`'s rows of each (pid, tid) of `pairs`. */
  deletePairs(table: Table, pairs: readonly TaskRef[]): void {
    if (pairs.length === 0) return;
    const queued = this.deletions.get(table);
    if (queued) queued.push(...pairs);
    else this.deletions.set(table, [...pairs]);
  }

  /** Takes everything queued out of the buffer, by table (the caller writes it). */
  drain(): Drained {
    const upserts = [...this.pending].map(([table, queued]) => ({ table, records: [...queued.values()] }));
    const deletions = [...this.deletions].map(([table, pairs]) => ({ table, pairs }));
    this.pending.clear();
    this.deletions.clear();
    return { upserts, deletions };
  }

  /** Writes what is queued for one table (its deletions, then its upserts), or for every table. */
  async flush(table?: Table): Promise<void> {
    const tables = table ? [table] : [...new Set([...this.deletions.keys(), ...this.pending.keys()])];
    for (const t of tables) {
      const pairs = this.deletions.get(t);
      this.deletions.delete(t);
      if (pairs) await this.remove(t, pairs);
      const queued = this.pending.get(t);
      this.pending.delete(t);
      if (queued) await this.write(t, [...queued.values()]);
    }
  }

  private async remove(table: Table, pairs: TaskRef[]): Promise<void> {
    const perChunk = Math.floor(MAX_PARAMS / 2);
    for (let start = 0; start < pairs.length; start += perChunk) {
      const { sql, params } = deletePairs(table, this.backend, pairs.slice(start, start + perChunk));
      await this.execute(sql, params);
    }
  }

  private async write(table: Table, records: DbRecord[]): Promise<void> {
    if (this.backend === 'postgresql') {
      for (let start = 0; start < records.length; start += MAX_ROWS) {
        const json = recordsJson(records.slice(start, start + MAX_ROWS));
        await this.execute(upsertFromJsonSql(table), [json], `acts-upsert-${table.sqlName}`);
      }
      return;
    }
    const perRow = insertColumns(table).length;
    const perChunk = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / perRow)));
    for (let start = 0; start < records.length; start += perChunk) {
      const chunk = records.slice(start, start + perChunk);
      const params: unknown[] = [];
      for (const record of chunk) insertParams(table, record, params);
      await this.execute(insertSql(table, this.backend, chunk.length, 'replace'), params);
    }
  }
}
