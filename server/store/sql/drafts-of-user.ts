/** ServerQueries.draftsOfUser (the models page's drafts): served by the user_id index. */
import { TABLES } from '../columns.ts';
import type { DraftRow } from '../server-rows.ts';
import type { SqlRunner } from './runner.ts';

export function draftsOfUser(db: SqlRunner, userId: string): Promise<DraftRow[]> {
  return db.rows(TABLES.drafts, (p) => `SELECT * FROM "drafts" WHERE "user_id" = ${p.slot(userId)} ORDER BY "update_time" DESC, "id"`);
}
