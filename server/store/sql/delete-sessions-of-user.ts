/** ServerQueries.deleteSessionsOfUser (password change, disabling): served by the user_id index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteSessionsOfUser(db: SqlRunner, userId: string): Promise<number> {
  return db.execute(TABLES.sessions, (p) => `DELETE FROM "sessions" WHERE "user_id" = ${p.slot(userId)}`);
}
