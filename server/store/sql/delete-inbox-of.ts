/** StoreQueries.deleteInboxOf (a job's batch, when an act message says its task left the inbox): the (pid, tid) index. */
import type { TaskRef } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteInboxOf(db: SqlRunner, tasks: readonly TaskRef[]): Promise<number> {
  if (tasks.length === 0) return Promise.resolve(0);
  return db.execute(TABLES.inbox, (p) => {
    const pairs = tasks.map((t) => `("pid" = ${p.slot(t.pid)} AND "tid" = ${p.slot(t.tid)})`);
    return `DELETE FROM "inbox" WHERE ${pairs.join(' OR ')}`;
  });
}
