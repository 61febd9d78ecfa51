/** StoreQueries.dueSchedules (schedule triggers): served by the (kind, next_run) index. */
import type { EventRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function dueSchedules(db: SqlRunner, now: number, max: number): Promise<EventRow[]> {
  return db.rows(
    TABLES.events,
    (p) =>
      `SELECT * FROM "events" WHERE "kind" = 'schedule' AND "enabled" = TRUE AND "next_run" > 0 AND "next_run" <= ${p.floorMs(now)} ` +
      `ORDER BY "next_run", "seq", "id" ${limit(max)}`,
  );
}
