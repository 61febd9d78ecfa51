/** StoreQueries.hasUnsettledDeliveries (the sweeper): served by the (pid, tid) index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function hasUnsettledDeliveries(db: SqlRunner, pid: string): Promise<boolean> {
  return db.exists(TABLES.deliveries, (p) => `SELECT "id" FROM "deliveries" WHERE "pid" = ${p.slot(pid)} AND "status" IN ('created', 'error') LIMIT 1`);
}
