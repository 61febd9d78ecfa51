/** The WHERE of the inbox statements (inbox-page.ts, inbox-count.ts): rows of the filter's principals (and model, holder, due). */
import type { InboxFilter } from '../contract/types.ts';
import type { Params } from './params.ts';

export function inboxWhere(p: Params, filter: InboxFilter, alias: string): string {
  const principal = filter.principals.length === 1 ? `= ${p.slot(filter.principals[0])}` : `IN ${p.list(filter.principals)}`;
  // the slots are taken in the text's order (SQLite's `?` are positional)
  const whose = filter.alsoHeldBy === undefined ? `${alias}."principal" ${principal}` : `(${alias}."principal" ${principal} OR (${alias}."principal" = '' AND ${alias}."holder" = ${p.slot(filter.alsoHeldBy)}))`;
  const mid = filter.mid === undefined ? '' : ` AND ${alias}."mid" = ${p.slot(filter.mid)}`;
  const holder = filter.holder === undefined ? '' : filter.holder === null ? ` AND ${alias}."holder" IS NULL` : ` AND ${alias}."holder" = ${p.slot(filter.holder)}`;
  const due = filter.dueBefore === undefined ? '' : ` AND ${alias}."due_time" < ${p.ceilMs(filter.dueBefore)}`;
  const from = filter.dueFrom === undefined ? '' : ` AND ${alias}."due_time" >= ${p.ceilMs(filter.dueFrom)}`;
  return `${whose}${mid}${holder}${due}${from}`;
}
