/** StoreQueries.triggersOfModel (deploy): served by the mid index. */
import type { EventRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function triggersOfModel(db: SqlRunner, mid: string): Promise<EventRow[]> {
  return db.rows(TABLES.events, (p) => `SELECT * FROM "events" WHERE "mid" = ${p.slot(mid)} ORDER BY "seq", "id"`);
}
