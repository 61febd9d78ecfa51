/**
 * StoreQueries.deleteInboxOf (a job's batch, when an act message says its task left the inbox):
 * the (pid, tid) index; in a batch, queued with the batch's upserts (upsert-buffer.ts).
 */
import type { TaskRef } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteInboxOf(db: SqlRunner, tasks: readonly TaskRef[]): Promise<number> {
  return db.deletePairs(TABLES.inbox, tasks);
}
