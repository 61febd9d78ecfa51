/** ServerQueries.dueNotifications (server/notify's sender): pending rows due now and not leased, by the (state, next_time) index. */
import { TABLES } from '../columns.ts';
import type { NotificationRow } from '../server-rows.ts';
import { limit as limitOf } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function dueNotifications(db: SqlRunner, now: number, limit: number): Promise<NotificationRow[]> {
  return db.rows(
    TABLES.notifications,
    (p) =>
      `SELECT * FROM "notifications" WHERE "state" = 'pending' AND "next_time" <= ${p.floorMs(now)} AND "lease_until" < ${p.ceilMs(now)} ` +
      `ORDER BY "next_time", "id" ${limitOf(limit)}`,
  );
}
