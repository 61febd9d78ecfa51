/**
 * StoreQueries.inboxPage: one principal (the caller who sees every task, whose rows are one per
 * task) walks its (principal[, mid], start_time, seq) index — or (principal, due_time, seq), or
 * (principal, priority, due_time, seq) — in order and stops at the page; several
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
      page.principals.length === 1 && page.alsoHeldBy === undefined
        ? inboxWhere(p, page, 'i')
        : `i."id" IN (SELECT MIN(g."id") FROM "inbox" g WHERE ${inboxWhere(p, page, 'g')} GROUP BY g."pid", g."tid")`;
    const start = `i."start_time"${dir}, i."seq"${dir}, i."id"${dir}`;
    const order = page.order === 'due' ? `i."due_time", ${start}` : page.order === 'priority' ? `i."priority" DESC, i."due_time", ${start}` : start;
    return `SELECT * FROM "inbox" i WHERE ${rows} ORDER BY ${order} ${limit(page.limit)}${offset(page.offset)}`;
  });
}
