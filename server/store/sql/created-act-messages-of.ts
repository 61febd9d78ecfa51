/**
 * StoreQueries.createdActMessagesOf (the inbox): one (pid, tid) pair per task, so the (pid, tid)
 * index finds each task's messages instead of reading every created message.
 */
import type { MessageRow, TaskRef } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function createdActMessagesOf(db: SqlRunner, tasks: readonly TaskRef[]): Promise<MessageRow[]> {
  return db.rows(TABLES.messages, (p) => {
    const pairs = tasks.map((t) => `("pid" = ${p.slot(t.pid)} AND "tid" = ${p.slot(t.tid)})`);
    return `SELECT * FROM "messages" WHERE "state" = 'created' AND "type" = 'act' AND (${pairs.join(' OR ') || '1 = 0'}) ORDER BY "seq", "id"`;
  });
}
