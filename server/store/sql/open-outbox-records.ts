/**
 * StoreQueries.openOutboxRecords (recovery): the open statuses by name rather than `<> 'done'`,
 * an index range each of (type, status, create_time) — the done records are most rows.
 */
import type { OpRow, OpType } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function openOutboxRecords(db: SqlRunner, type: OpType): Promise<OpRow[]> {
  return db.rows(
    TABLES.ops,
    (p) => `SELECT * FROM "ops" WHERE "type" = ${p.slot(type)} AND "status" IN ('pending', 'overflow', 'dispatched') ORDER BY "create_time", "seq", "id"`,
  );
}
