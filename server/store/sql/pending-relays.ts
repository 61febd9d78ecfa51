/** StoreQueries.pendingRelays (relay.ts): served by the (type, status, create_time) index. */
import type { OpRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function pendingRelays(db: SqlRunner, max: number): Promise<OpRow[]> {
  return db.rows(TABLES.ops, () => `SELECT * FROM "ops" WHERE "type" = 'relay' AND "status" = 'pending' ORDER BY "create_time", "seq", "id" ${limit(max)}`);
}
