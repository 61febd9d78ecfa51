/**
 * A long `or` of `eq` on one text column (a list of run ids: the runs list's failing-node filter,
 * server/api/runs-filter.ts) on every backend: the SQL stores send it as one `IN (…)` — SQLite
 * would refuse 5,000 nested ORs (its expression depth limit is 1,000) — with the same answer as
 * the in-memory evaluator, also on a nullable column and beside other filters.
 */
import { describe, expect, it } from 'vitest';
import { runQuery } from '../server/store/contract/query.ts';
import type { EventRow, Query, QueryExpr, QueryFilter } from '../server/store/contract/types.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { samples } from './helpers/store-samples.ts';

const ev = (id: string, fields: Partial<EventRow>): EventRow => ({ ...samples.events(id, 1), ...fields });
const rows: EventRow[] = [ev('a', { cron: 'x' }), ev('b', { cron: null }), ev('c', { cron: 'y' }), ev('d', { cron: 'x' })];

const eq = (key: string, value: unknown): QueryExpr => ({ key, op: 'eq', value });
const oneOf = (key: string, values: readonly unknown[]): QueryFilter => ({ type: 'or', exprs: values.map((v) => eq(key, v)) });
const many = (...found: string[]) => [...Array.from({ length: 5000 }, (_, i) => `none-${i}`), ...found];

const queries: Query[] = [
  { filter: { type: 'and', exprs: [oneOf('id', many('c', 'a'))] } },
  { filter: { type: 'and', exprs: [oneOf('cron', many('x'))] } },
  { filter: { type: 'and', exprs: [oneOf('id', many('a', 'b', 'd')), eq('cron', 'x')] }, order_by: ['-id'] },
  // not one column, or not all text values: the plain OR
  { filter: { type: 'or', exprs: [eq('id', 'a'), eq('cron', 'y')] } },
  { filter: { type: 'or', exprs: [eq('id', 'a'), eq('id', 7), eq('id', 'b')] } },
];

describe.each(BACKENDS)('%s: or of eq on one text column', (backend) => {
  const store = useTestStore(backend);

  it('answers like the in-memory evaluator, with 5,000 values too', async () => {
    for (const row of rows) await store().events.create(row);
    for (const query of queries) expect(await store().events.query(query)).toEqual(runQuery(rows, query));
    expect((await store().events.query(queries[2])).rows.map((r) => r.id)).toEqual(['d', 'a']);
  });
});
