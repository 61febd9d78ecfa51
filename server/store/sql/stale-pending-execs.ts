/** StoreQueries.stalePendingExecs (overflow replay): served by the (type, status, create_time) index. */
import type { OpRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function stalePendingExecs(db: SqlRunner, updatedBy: number, max: number): Promise<OpRow[]> {
  return db.rows(
    TABLES.ops,
    (p) =>
      `SELECT * FROM "ops" WHERE "type" = 'exec' AND "status" = 'pending' AND "update_time" <= ${p.floorMs(updatedBy)} ` +
      `ORDER BY "create_time", "seq", "id" ${limit(max)}`,
  );
}
