/** StoreQueries.countProcessesIn (metrics): served by the (state, timestamp) index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function countProcessesIn(db: SqlRunner, state: string): Promise<number> {
  return db.count(TABLES.procs, (p) => `SELECT COUNT(*) AS "n" FROM "procs" WHERE "state" = ${p.slot(state)}`);
}
