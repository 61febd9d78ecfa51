/** StoreQueries.subflowChildOf: served by the parent_pid index. */
import type { ProcRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function subflowChildOf(db: SqlRunner, pid: string, tid: string): Promise<ProcRow | undefined> {
  return db.first(
    TABLES.procs,
    (p) => `SELECT * FROM "procs" WHERE "parent_pid" = ${p.slot(pid)} AND "parent_tid" = ${p.slot(tid)} ORDER BY "seq", "id" LIMIT 1`,
  );
}
