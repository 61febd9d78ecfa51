/** StoreQueries.hasOpenOutboxRecords (the stuck check): served by the (pid, tid) index. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function hasOpenOutboxRecords(db: SqlRunner, pid: string): Promise<boolean> {
  return db.exists(TABLES.ops, (p) => `SELECT "id" FROM "ops" WHERE "pid" = ${p.slot(pid)} AND "status" <> 'done' LIMIT 1`);
}
