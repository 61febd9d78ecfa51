/** StoreQueries.deleteFailedDeliveries (clear): served by the (status, update_time) index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteFailedDeliveries(db: SqlRunner, pid?: string): Promise<number> {
  return db.execute(TABLES.deliveries, (p) => `DELETE FROM "deliveries" WHERE "status" = 'error'${pid ? ` AND "pid" = ${p.slot(pid)}` : ''}`);
}
