/** StoreQueries.deleteTriggersOfModel (model removal): served by the mid index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteTriggersOfModel(db: SqlRunner, mid: string): Promise<number> {
  return db.execute(TABLES.events, (p) => `DELETE FROM "events" WHERE "mid" = ${p.slot(mid)}`);
}
