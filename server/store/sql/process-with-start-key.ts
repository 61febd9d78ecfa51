/** StoreQueries.processWithStartKey: served by the start_key index. */
import type { ProcRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function processWithStartKey(db: SqlRunner, key: string): Promise<ProcRow | undefined> {
  return db.first(TABLES.procs, (p) => `SELECT * FROM "procs" WHERE "start_key" = ${p.slot(key)} ORDER BY "seq", "id" LIMIT 1`);
}
