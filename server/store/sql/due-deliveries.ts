/** StoreQueries.dueDeliveries (re-sending): served by the (status, update_time) index. */
import type { DeliveryRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function dueDeliveries(db: SqlRunner, channels: readonly string[], sentBy: number, max: number): Promise<DeliveryRow[]> {
  return db.rows(
    TABLES.deliveries,
    (p) =>
      `SELECT * FROM "deliveries" WHERE "status" = 'created' AND "update_time" <= ${p.floorMs(sentBy)} AND "chan_id" IN ${p.list(channels)} ` +
      `ORDER BY "update_time", "seq", "id" ${limit(max)}`,
  );
}
