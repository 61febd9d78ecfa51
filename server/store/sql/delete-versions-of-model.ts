/** StoreQueries.deleteVersionsOfModel (model removal): served by the mid index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteVersionsOfModel(db: SqlRunner, mid: string): Promise<number> {
  return db.execute(TABLES.modelVersions, (p) => `DELETE FROM "model_versions" WHERE "mid" = ${p.slot(mid)}`);
}
