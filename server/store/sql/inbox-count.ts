/** StoreQueries.inboxCount: the rows of inbox-page.ts, counted (each task once), on the same indexes. */
import type { InboxFilter } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { inboxWhere } from './inbox-filter.ts';
import type { SqlRunner } from './runner.ts';

export function inboxCount(db: SqlRunner, filter: InboxFilter): Promise<number> {
  if (filter.principals.length === 0) return Promise.resolve(0);
  return db.count(TABLES.inbox, (p) =>
    filter.principals.length === 1 && filter.alsoHeldBy === undefined
      ? `SELECT COUNT(*) AS "n" FROM "inbox" i WHERE ${inboxWhere(p, filter, 'i')}`
      : `SELECT COUNT(*) AS "n" FROM (SELECT i."pid" FROM "inbox" i WHERE ${inboxWhere(p, filter, 'i')} GROUP BY i."pid", i."tid") AS "tasks_seen"`,
  );
}
