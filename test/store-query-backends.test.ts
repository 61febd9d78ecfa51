/**
 * The query language (spec 4.2) on every backend: each query's page must equal what the pure
 * evaluator (runQuery, the memory store's semantics) returns for the same rows in creation order,
 * and a few answers are spelled out. Then what only the SQL stores refuse, with their messages.
 */
import { describe, expect, it } from 'vitest';
import { runQuery } from '../server/store/contract/query.ts';
import Database from 'better-sqlite3';
import { literalLike, sqliteAdapterFactory } from '../server/store/sqlite-connection.ts';
import type { EventRow, Query, QueryExpr, QueryFilter } from '../server/store/contract/types.ts';
import { BACKENDS, createTestDatabase, SQL_BACKENDS, useTestStore } from './helpers/databases.ts';
import { samples } from './helpers/store-samples.ts';

const ev = (id: string, fields: Partial<EventRow>): EventRow => ({ ...samples.events(id, 1), ...fields });

// Every column kind: text (name, uses), nullable text (cron, timezone), int (ver), time (next_run),
// bool (enabled), JSON (params, nullable).
const rows: EventRow[] = [
  ev('a', { ver: 9, cron: 'apple', enabled: true, params: { tag: 'red', meta: { level: 1 } }, next_run: 9, name: 'x' }),
  ev('b', { ver: 10, cron: 'Banana', enabled: false, params: { tag: 'green' }, next_run: 2 ** 40, timezone: 'UTC' }),
  ev('c', { ver: 2, cron: 'cherry', enabled: true, params: { tag: null }, next_run: -3, name: 'y' }),
  ev('d', { ver: -1, cron: '10', enabled: false, params: null, next_run: 2 ** 40 }),
  ev('e', { ver: 0, cron: 'date', enabled: false, params: ['y'], timezone: 'Europe/Paris' }),
  ev('f', { ver: 10, cron: null, enabled: true, params: { tag: 'red', meta: { level: 3 } }, name: 'x' }),
  ev('g', { ver: 3, cron: '50%_off', enabled: true, params: [1, 'x_y'], next_run: 7 }),
];

const and = (...exprs: Array<QueryExpr | QueryFilter>): QueryFilter => ({ type: 'and', exprs });
const or = (...exprs: Array<QueryExpr | QueryFilter>): QueryFilter => ({ type: 'or', exprs });
const x = (key: string, op: QueryExpr['op'], value: unknown): QueryExpr => ({ key, op, value });
const where = (key: string, op: QueryExpr['op'], value: unknown): Query => ({ filter: and(x(key, op, value)) });

const OPS: QueryExpr['op'][] = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'];

/** Queries whose answers must equal runQuery's on every backend. */
const equivalent: Query[] = [
  {},
  { filter: and() },
  { filter: or() },
  { filter: and(x('cron', 'eq', 'zzz'), x('ver', 'eq', 10)) },
  { filter: and(or(), x('enabled', 'eq', true)) },
  { filter: or(x('enabled', 'eq', true), or()) },
  { filter: and(or(x('params', 'match', 'red'), x('ver', 'eq', 2)), x('ver', 'ge', 9)) },
  { filter: or(and(x('enabled', 'eq', false), x('cron', 'match', 'an')), x('id', 'eq', 'd')) },
  // every comparison on every kind with same-type, other-type, fractional, out-of-range and null values
  ...OPS.flatMap((op) => [
    ...[9, 9.5, 10, -1, 0, 2 ** 40, -(2 ** 40), Infinity, -Infinity, '10', true, null].map((v) => where('ver', op, v)),
    ...[9, 2 ** 40, 2 ** 40 + 0.5, -3, 0, 2 ** 70, '9', null].map((v) => where('next_run', op, v)),
    ...['b', 'cherry', '1', 'Banana', '', 0, null].map((v) => where('cron', op, v)),
    ...['x', 'y', 'z', 1, null].map((v) => where('name', op, v)),
    ...[true, false, 'true', 1, null].map((v) => where('enabled', op, v)),
    ...['UTC', null].map((v) => where('timezone', op, v)),
  ]),
  ...['eq', 'ne'].flatMap((op) =>
    [{ tag: 'green' }, { tag: null }, ['y'], [1, 'x_y'], { meta: { level: 1 }, tag: 'red' }, 'red', 3, null].map((v) =>
      where('params', op as QueryExpr['op'], v),
    ),
  ),
  ...['an', 'a', 'B', 'b', '', '%', '_', '0%_', 'APPLE'].map((v) => where('cron', 'match', v)),
  ...['"red"', 'level', 'y', 'x_y', '', '%', 'null'].map((v) => where('params', 'match', v)),
  ...['ru', 'e', 'true', 'x', ''].map((v) => where('enabled', 'match', v)),
  ...['x', ''].map((v) => where('name', 'match', v)),
  // ordering: nulls first ascending / last descending, later keys and insertion order break ties
  { order_by: [{ field: 'ver', order: 'asc' }] },
  { order_by: ['-ver'] },
  { order_by: ['cron'] },
  { order_by: ['-cron'] },
  { order_by: ['+timezone'] },
  { order_by: ['-timezone', 'cron'] },
  { order_by: ['-ver', '-id'] },
  { order_by: ['enabled', 'ver'] },
  { order_by: ['enabled'] },
  { order_by: ['-enabled'] },
  { order_by: ['name'] },
  { order_by: ['-next_run', 'id'] },
  // paging
  { offset: 4, limit: 2, order_by: ['id'] },
  { offset: 3, limit: 4 },
  { offset: 4, limit: 4 },
  { filter: and(x('ver', 'ge', 9)), limit: 1, order_by: ['-id'] },
  { offset: 10, limit: 5 },
  { filter: or(), limit: 10 },
  { filter: and(x('enabled', 'eq', true)), offset: 1, limit: 2, order_by: ['-ver'] },
];

describe.each(BACKENDS)('%s queries', (backend) => {
  const store = useTestStore(backend);
  const load = async (): Promise<void> => {
    for (const row of rows) await store().events.create(row);
  };
  const ids = async (query: Query): Promise<string[]> => (await store().events.query(query)).rows.map((row) => row.id);

  it(`answers ${equivalent.length} queries exactly like the in-memory evaluator`, async () => {
    await load();
    for (const query of equivalent) {
      expect(await store().events.query(query), JSON.stringify(query)).toEqual(runQuery(rows, query));
    }
  });

  it('spells out the answers: type-strict equality, three-valued logic, byte order, case-sensitive match', async () => {
    await load();
    expect(await ids(where('ver', 'eq', 10))).toEqual(['b', 'f']);
    expect(await ids(where('ver', 'eq', '10'))).toEqual([]);
    expect(await ids(where('cron', 'eq', '10'))).toEqual(['d']);
    expect(await ids(where('cron', 'eq', null))).toEqual(['f']);
    expect(await ids(where('cron', 'ne', 'apple'))).toEqual(['b', 'c', 'd', 'e', 'g']);
    expect(await ids(where('cron', 'ne', 5))).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
    expect(await ids(where('ver', 'lt', 9.5))).toEqual(['a', 'c', 'd', 'e', 'g']);
    expect(await ids(where('ver', 'gt', 2 ** 40))).toEqual([]);
    expect(await ids(where('ver', 'lt', 2 ** 40))).toHaveLength(7);
    expect(await ids(where('cron', 'lt', 'b'))).toEqual(['a', 'b', 'd', 'g']);
    expect(await ids(where('enabled', 'lt', true))).toEqual(['b', 'd', 'e']);
    expect(await ids(where('params', 'eq', { tag: 'green' }))).toEqual(['b']);
    expect(await ids(where('params', 'eq', null))).toEqual(['d']);
    expect(await ids(where('cron', 'match', 'B'))).toEqual(['b']);
    expect(await ids(where('cron', 'match', '%'))).toEqual(['g']);
    expect(await ids(where('cron', 'match', '_'))).toEqual(['g']);
    expect(await ids(where('params', 'match', '"red"'))).toEqual(['a', 'f']);
    expect(await ids({ order_by: ['cron'] })).toEqual(['f', 'd', 'g', 'b', 'a', 'c', 'e']);
    expect(await ids({ order_by: ['-cron'] })).toEqual(['e', 'c', 'a', 'b', 'g', 'd', 'f']);
    expect(await ids({ order_by: ['enabled'] })).toEqual(['b', 'd', 'e', 'a', 'c', 'f', 'g']);
    const page = await store().events.query({ filter: and(x('ver', 'ge', 9)), limit: 1, order_by: ['-id'] });
    expect(page).toMatchObject({ count: 3, page_num: 1, page_count: 3, page_size: 1 });
    expect(page.rows.map((row) => row.id)).toEqual(['f']);
    expect(await store().events.query({ offset: 10, limit: 5 })).toEqual({ count: 7, page_num: 3, page_count: 2, page_size: 5, rows: [] });
  });

  it('deleteWhere removes exactly what the same filter queries', async () => {
    await load();
    const filter = or(and(x('enabled', 'eq', false), x('cron', 'match', 'a')), x('params', 'eq', null), x('next_run', 'gt', 2 ** 39));
    const expected = runQuery(rows, { filter }).rows.map((row) => row.id);
    expect(expected).toEqual(['b', 'd', 'e']);
    expect(await store().events.deleteWhere(filter)).toBe(3);
    expect(await ids({})).toEqual(['a', 'c', 'f', 'g']);
  });
});

describe.each(SQL_BACKENDS)('%s query limits', (backend) => {
  const store = useTestStore(backend);

  it('refuses dotted paths into JSON text, unknown fields and comparisons it cannot do in SQL', async () => {
    const events = store().events;
    await expect(events.query(where('params.tag', 'eq', 'red'))).rejects.toThrow(
      "cannot filter on 'params.tag': dotted paths into the JSON text column 'params' are not supported by the SQL stores",
    );
    await expect(events.query(where('nope', 'eq', 1))).rejects.toThrow("cannot filter on 'nope': events has no field 'nope'");
    await expect(events.query(where('seq', 'gt', 1))).rejects.toThrow("cannot filter on 'seq': events has no field 'seq'");
    await expect(events.query(where('ver', 'match', '1'))).rejects.toThrow(/cannot filter on 'ver': match needs a text or JSON field/);
    await expect(events.query(where('params', 'lt', 'x'))).rejects.toThrow(/cannot filter on 'params': 'lt' cannot compare the JSON text column/);
    await expect(events.query({ order_by: ['params.tag'] })).rejects.toThrow(/cannot order by 'params.tag'/);
    await expect(events.query({ order_by: ['-nope'] })).rejects.toThrow("cannot order by 'nope': events has no field 'nope'");
    await expect(events.deleteWhere(and(x('nope', 'eq', 1)))).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('SQLite LIKE replacement', () => {
  it('tests %v% as literal containment and keeps LIKE meaning for other patterns, case-sensitively', () => {
    expect(literalLike('%a_b%', 'xa_by')).toBe(1);
    expect(literalLike('%a_b%', 'xaXby')).toBe(0);
    expect(literalLike('%%%', '50%')).toBe(1);
    expect(literalLike('%%', '')).toBe(1);
    expect(literalLike('%B%', 'abc')).toBe(0);
    expect(literalLike('a%', 'abc')).toBe(1);
    expect(literalLike('a_c', 'abc')).toBe(1);
    expect(literalLike('a_c', 'aBcd')).toBe(0);
    expect(literalLike('(.*)', '(.*)')).toBe(1);
    expect(literalLike('%1%', 10n)).toBe(1);
    expect(literalLike('%a%', null)).toBeNull();
  });
});

describe('SQLite integer binding', () => {
  const RUNS_PAGE = 'SELECT * FROM "procs" WHERE 1=1 ORDER BY "start_time" DESC, "seq" ASC, "id" ASC LIMIT ? OFFSET ?';

  it('a LIMIT bound as an integer makes SQLite sort the whole table for the runs list; bound as a number it walks the index', async () => {
    const db = await createTestDatabase('sqlite');
    const planner = new Database(db.url.slice('file:'.length), { readonly: true });
    try {
      const plan = (...page: unknown[]) => (planner.prepare(`EXPLAIN QUERY PLAN ${RUNS_PAGE}`).all(...page) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan(50n, 0n)).toContain('SCAN procs');
      expect(plan(50, 0)[0]).toBe('SCAN procs USING INDEX procs_start_time_idx');
    } finally {
      planner.close();
      await db.drop();
    }
  });

  it("the store's connections and their transactions bind BigInt arguments as numbers while they are safe integers", async () => {
    const db = await createTestDatabase('sqlite');
    const adapter = await sqliteAdapterFactory(db.url, 5_000).connect();
    try {
      const typesOf = async (queryable: typeof adapter | Awaited<ReturnType<typeof adapter.startTransaction>>) =>
        (
          await queryable.queryRaw({
            sql: 'SELECT typeof(?), typeof(?), typeof(?), typeof(?), ? = 9007199254740993',
            args: ['50', String(2 ** 40), 7n, '9007199254740993', '9007199254740993'],
            argTypes: [0, 1, 2, 3, 4].map(() => ({ scalarType: 'bigint' as const, arity: 'scalar' as const })),
          })
        ).rows[0];
      // Prisma's decimal texts and a raw query's bigint alike; past 2^53 a number would lose digits: such a value stays an integer
      expect(await typesOf(adapter)).toEqual(['real', 'real', 'real', 'integer', 1]);
      const tx = await adapter.startTransaction();
      expect(await typesOf(tx)).toEqual(['real', 'real', 'real', 'integer', 1]);
      await tx.rollback();
    } finally {
      await adapter.dispose();
      await db.drop();
    }
  });
});
