/** StoreQueries.createdDeliveriesOfTask: served by the (pid, tid) index. */
import type { DeliveryRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function createdDeliveriesOfTask(db: SqlRunner, pid: string, tid: string): Promise<DeliveryRow[]> {
  return db.rows(
    TABLES.deliveries,
    (p) => `SELECT * FROM "deliveries" WHERE "pid" = ${p.slot(pid)} AND "tid" = ${p.slot(tid)} AND "status" = 'created' ORDER BY "seq", "id"`,
  );
}
