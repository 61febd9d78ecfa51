/** StoreQueries.countDeliveries (the delivery backlog): served by the (status, update_time) index. */
import type { DeliveryStatus } from '../../../vocab/states.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function countDeliveries(db: SqlRunner, status: DeliveryStatus): Promise<number> {
  return db.count(TABLES.deliveries, (p) => `SELECT COUNT(*) AS "n" FROM "deliveries" WHERE "status" = ${p.slot(status)}`);
}
