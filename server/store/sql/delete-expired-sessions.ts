/** ServerQueries.deleteExpiredSessions (the sweep; a login's own): served by the expires / user_id index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteExpiredSessions(db: SqlRunner, now: number, userId?: string): Promise<number> {
  return db.execute(
    TABLES.sessions,
    (p) => `DELETE FROM "sessions" WHERE ${userId === undefined ? '' : `"user_id" = ${p.slot(userId)} AND `}"expires" <= ${p.floorMs(now)}`,
  );
}
