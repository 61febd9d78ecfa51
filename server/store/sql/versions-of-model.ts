/** StoreQueries.versionsOfModel: served by the mid index. */
import type { ModelVersionRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function versionsOfModel(db: SqlRunner, mid: string): Promise<ModelVersionRow[]> {
  return db.rows(TABLES.modelVersions, (p) => `SELECT * FROM "model_versions" WHERE "mid" = ${p.slot(mid)} ORDER BY "ver", "seq", "id"`);
}
