/**
 * `createAuditLog(store, clock)`: the `AuditLog` of server/audit/types.ts on the server's `audit`
 * collection. Entries are only ever added; queries filter by actor, action, target and a time
 * range and page newest first. Entries recorded at the same time are written together
 * (entry-writer.ts), by default as a statement of their own, on the server with the engine's
 * store transactions (engine-writes.ts).
 *
 * State: the rows in the store; the id source (entry-ids.ts); the group being written.
 */
import { systemClock, type Clock } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import type { QueryExpr, QueryFilter } from '../store/contract/types.ts';
import type { AuditRow, ServerCollections, ServerQueries } from '../store/server-rows.ts';
import { boundDetail, MAX_DETAIL_BYTES, MAX_LIST_DETAIL_BYTES } from './bound-detail.ts';
import { EntryIds } from './entry-ids.ts';
import { AuditEntryWriter, type WriteEntries } from './entry-writer.ts';
import type { AuditLog, AuditQuery } from './types.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** Longest kept value of each text field (longer ones are cut). */
const MAX_CHARS = { actor: 200, actor_name: 200, action: 100, target: 500, result: 200 } as const;

function invalid(message: string): never {
  throw new ActError('input.invalid', message);
}

function text(field: keyof typeof MAX_CHARS, value: unknown, required: boolean): string {
  if (typeof value !== 'string' || (required && value === '')) invalid(`audit ${field} must be a${required ? ' non-empty' : ''} string`);
  return value.slice(0, MAX_CHARS[field]);
}

function integer(field: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) invalid(`audit ${field} must be an integer from ${min} to ${max}`);
  return value;
}

/** `target` is `prefix` or starts with `prefix/` (text compares by code point: '0' follows '/'). */
function under(prefix: string): QueryFilter {
  return {
    type: 'or',
    exprs: [
      { key: 'target', op: 'eq', value: prefix },
      { type: 'and', exprs: [{ key: 'target', op: 'gt', value: `${prefix}/` }, { key: 'target', op: 'lt', value: `${prefix}0` }] },
    ],
  };
}

function filterOf(query: AuditQuery): Array<QueryExpr | QueryFilter> {
  const exprs: Array<QueryExpr | QueryFilter> = [];
  for (const key of ['actor', 'action', 'target'] as const) {
    if (query[key] !== undefined) exprs.push({ key, op: 'eq', value: text(key, query[key], false) });
  }
  if (query.targetUnder !== undefined) exprs.push(under(text('target', query.targetUnder, true)));
  if (query.from !== undefined) exprs.push({ key: 'time', op: 'ge', value: integer('from', query.from, 0) });
  if (query.to !== undefined) exprs.push({ key: 'time', op: 'le', value: integer('to', query.to, 0) });
  return exprs;
}

/** What the audit log needs of a store: its `audit` table and the statement that inserts entries. */
export type AuditStore = Pick<ServerCollections, 'audit'> & { serverQueries: Pick<ServerQueries, 'insertAuditEntries'> };

/** Groups of entries written as a statement of their own. */
export const writtenAlone =
  (store: AuditStore): WriteEntries =>
  (rows) =>
    store.serverQueries.insertAuditEntries(rows);

/**
 * The audit log on `store` (an `OpenedStore` from openStore(url), or any ServerStore). `writeEntries`:
 * how a group of entries is written — by default a statement of its own
 * (ServerQueries.insertAuditEntries); the server queues them with the engine's writes
 * (engine-writes.ts).
 */
export function createAuditLog(store: AuditStore, clock: Clock = systemClock, writeEntries: WriteEntries = writtenAlone(store)): AuditLog {
  const ids = new EntryIds(clock);
  const writer = new AuditEntryWriter(writeEntries);
  return {
    async record(entry) {
      const row: AuditRow = {
        id: ids.next(),
        time: entry.time === undefined ? clock.now() : integer('time', entry.time, 0),
        actor: text('actor', entry.actor, true),
        actor_name: text('actor_name', entry.actor_name, false),
        action: text('action', entry.action, true),
        target: text('target', entry.target, false),
        detail: boundDetail(entry.detail, Math.min(entry.detailBytes ?? MAX_DETAIL_BYTES, MAX_LIST_DETAIL_BYTES)),
        result: text('result', entry.result, true),
      };
      await writer.write(row);
    },

    async query(query = {}) {
      const page = await store.audit.query({
        filter: { type: 'and', exprs: filterOf(query) },
        order_by: ['-time', '-id'],
        offset: query.offset === undefined ? 0 : integer('offset', query.offset, 0),
        limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : integer('limit', query.limit, 1, MAX_PAGE_SIZE),
      });
      return { count: page.count, rows: page.rows };
    },
  };
}
