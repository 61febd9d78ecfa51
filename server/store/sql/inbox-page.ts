/**
 * StoreQueries.inboxPage: one principal (the caller who sees every task, whose rows are one per
 * task) walks its (principal[, mid], start_time, seq) index in order and stops at the page; several
 * principals take each task's first matching row (a task may name several of them), then sort.
 */
import type { InboxPage, InboxRow } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import { inboxWhere } from './inbox-filter.ts';
import { limit, offset } from './params.ts';
import type { SqlRunner } from './runner.ts';

export function inboxPage(db: SqlRunner, page: InboxPage): Promise<InboxRow[]> {
  if (page.principals.length === 0) return Promise.resolve([]);
  const dir = page.newestFirst ? ' DESC' : '';
  return db.rows(TABLES.inbox, (p) => {
    const rows =
      page.principals.length === 1
        ? inboxWhere(p, page, 'i')
        : `i."id" IN (SELECT MIN(g."id") FROM "inbox" g WHERE ${inboxWhere(p, page, 'g')} GROUP BY g."pid", g."tid")`;
    return (
      `SELECT * FROM "inbox" i WHERE ${rows} ` +
      `ORDER BY i."start_time"${dir}, i."seq"${dir}, i."id"${dir} ${limit(page.limit)}${offset(page.offset)}`
    );
  });
}
