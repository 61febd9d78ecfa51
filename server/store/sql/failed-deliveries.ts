/** StoreQueries.failedDeliveries (redo): served by the (status, update_time) index. */
import type { DeliveryRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function failedDeliveries(db: SqlRunner): Promise<DeliveryRow[]> {
  return db.rows(TABLES.deliveries, () => `SELECT * FROM "deliveries" WHERE "status" = 'error' ORDER BY "seq", "id"`);
}
