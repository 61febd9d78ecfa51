/** ServerQueries.draftsOfModel (who else is changing a model before a deploy): served by the mid index. */
import { TABLES } from '../columns.ts';
import type { DraftRow } from '../server-rows.ts';
import type { SqlRunner } from './runner.ts';

export function draftsOfModel(db: SqlRunner, mid: string): Promise<DraftRow[]> {
  return db.rows(TABLES.drafts, (p) => `SELECT * FROM "drafts" WHERE "mid" = ${p.slot(mid)} ORDER BY "update_time" DESC, "id"`);
}
