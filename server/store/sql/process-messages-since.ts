/** StoreQueries.processMessagesSince (live catch-up of a process room): served by the (pid, tid) index. */
import type { MessageRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { limit } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function processMessagesSince(db: SqlRunner, pid: string, since: number, max: number): Promise<MessageRow[]> {
  return db.rows(
    TABLES.messages,
    (p) => `SELECT * FROM "messages" WHERE "pid" = ${p.slot(pid)} AND "create_time" >= ${p.ceilMs(since)} ORDER BY "create_time", "seq", "id" ${limit(max)}`,
  );
}
