/** StoreQueries.nextSchedule (the schedule timer): served by the (kind, next_run) index. */
import type { EventRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function nextSchedule(db: SqlRunner, after: number): Promise<EventRow | undefined> {
  return db.first(
    TABLES.events,
    (p) =>
      `SELECT * FROM "events" WHERE "kind" = 'schedule' AND "enabled" = TRUE AND "next_run" > ${p.floorMs(after)} ` +
      `ORDER BY "next_run", "seq", "id" LIMIT 1`,
  );
}
