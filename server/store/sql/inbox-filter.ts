/**
 * The WHERE of the inbox statements (inbox-page.ts, inbox-count.ts): rows of the filter's
 * principals (and model) whose task is still `interrupted` — a task whose state moved on without
 * an act message (a failed process's skipped tasks) keeps its rows until the process's rows go,
 * but no read shows it.
 */
import type { InboxFilter } from '../../engine/store/types.ts';
import type { Params } from './params.ts';

export function inboxWhere(p: Params, filter: InboxFilter, alias: string): string {
  const principal = filter.principals.length === 1 ? `= ${p.slot(filter.principals[0])}` : `IN ${p.list(filter.principals)}`;
  const mid = filter.mid === undefined ? '' : ` AND ${alias}."mid" = ${p.slot(filter.mid)}`;
  return `${alias}."principal" ${principal}${mid}`;
}

/** The task of an inbox row (alias `alias`) still waits: its tasks row, by primary key. */
export const stillOpen = (alias: string): string =>
  `EXISTS (SELECT 1 FROM "tasks" t WHERE t."id" = ${alias}."pid" || ':' || ${alias}."tid" AND t."state" = 'interrupted')`;
