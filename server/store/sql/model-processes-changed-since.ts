/** StoreQueries.modelProcessesChangedSince (live catch-up of a model room): served by the mid index. */
import type { ProcRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function modelProcessesChangedSince(db: SqlRunner, mid: string, since: number, max: number): Promise<ProcRow[]> {
  return db.rows(
    TABLES.procs,
    (p) =>
      `SELECT * FROM "procs" WHERE "mid" = ${p.slot(mid)} AND ("start_time" >= ${p.ceilMs(since)} OR "end_time" >= ${p.ceilMs(since)}) ` +
      `ORDER BY "start_time", "seq", "id" ${limit(max)}`,
  );
}
