import { describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import { runQuery } from '../server/store/contract/query.ts';
import type { Query, QueryExpr, QueryFilter } from '../server/store/contract/types.ts';

interface Item {
  id: string;
  n?: number | null;
  s?: string | null;
  b?: boolean;
  model?: { tag: string | null; meta?: { level: number } } | null;
  tags?: string[];
}

const items: Item[] = [
  { id: 'a', n: 9, s: 'apple', b: true, model: { tag: 'red', meta: { level: 1 } }, tags: ['x', 'y'] },
  { id: 'b', n: 10, s: 'Banana', b: false, model: { tag: 'green' }, tags: [] },
  { id: 'c', n: 2, s: 'cherry', b: true, model: { tag: null } },
  { id: 'd', n: null, s: '10', model: null },
  { id: 'e', s: 'date', b: false, tags: ['y'] },
  { id: 'f', n: 10, s: null, b: true, model: { tag: 'red', meta: { level: 3 } } },
];

const ids = (query?: Query): string[] => runQuery(items, query).rows.map((row) => row.id);
const and = (...exprs: Array<QueryExpr | QueryFilter>): QueryFilter => ({ type: 'and', exprs });
const or = (...exprs: Array<QueryExpr | QueryFilter>): QueryFilter => ({ type: 'or', exprs });
const where = (key: string, op: QueryExpr['op'], value: unknown): Query => ({ filter: and({ key, op, value }) });
const expectInvalid = (query: unknown, message: RegExp): void => {
  let caught: unknown;
  try {
    runQuery(items, query as Query);
  } catch (err) {
    caught = err;
  }
  expect(ActError.is(caught)).toBe(true);
  expect((caught as ActError).code).toBe('internal');
  expect((caught as ActError).message).toMatch(message);
};

describe('filter combinators', () => {
  it('returns everything without a filter and for an empty and', () => {
    expect(ids()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(ids({ filter: and() })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('returns nothing for an empty or', () => {
    expect(ids({ filter: or() })).toEqual([]);
  });

  it('returns nothing when one branch of an and matches nothing (no reference quirk)', () => {
    expect(ids({ filter: and({ key: 's', op: 'eq', value: 'zzz' }, { key: 'n', op: 'eq', value: 10 }) })).toEqual([]);
    expect(ids({ filter: and(or(), { key: 'b', op: 'eq', value: true }) })).toEqual([]);
  });

  it('intersects and unions nested filters', () => {
    const redOrTwo = or({ key: 'model.tag', op: 'eq', value: 'red' }, { key: 'n', op: 'eq', value: 2 });
    expect(ids({ filter: redOrTwo })).toEqual(['a', 'c', 'f']);
    expect(ids({ filter: and(redOrTwo, { key: 'n', op: 'ge', value: 9 }) })).toEqual(['a', 'f']);
    const falseWithAn = and({ key: 'b', op: 'eq', value: false }, { key: 's', op: 'match', value: 'an' });
    expect(ids({ filter: or(falseWithAn, { key: 'id', op: 'eq', value: 'd' }) })).toEqual(['b', 'd']);
  });
});

describe('eq / ne', () => {
  it('compares numbers, strings and booleans by type', () => {
    expect(ids(where('n', 'eq', 10))).toEqual(['b', 'f']);
    expect(ids(where('n', 'eq', '10'))).toEqual([]);
    expect(ids(where('s', 'eq', '10'))).toEqual(['d']);
    expect(ids(where('s', 'eq', 10))).toEqual([]);
    expect(ids(where('b', 'eq', true))).toEqual(['a', 'c', 'f']);
    expect(ids(where('b', 'eq', false))).toEqual(['b', 'e']);
  });

  it('treats eq null / ne null as IS NULL / IS NOT NULL, with missing values as null', () => {
    expect(ids(where('n', 'eq', null))).toEqual(['d', 'e']);
    expect(ids(where('n', 'eq', undefined))).toEqual(['d', 'e']);
    expect(ids(where('n', 'ne', null))).toEqual(['a', 'b', 'c', 'f']);
    expect(ids(where('model', 'eq', null))).toEqual(['d', 'e']);
  });

  it('never matches a NULL field with ne of a value (SQL three-valued logic)', () => {
    expect(ids(where('n', 'ne', 10))).toEqual(['a', 'c']);
    expect(ids(where('s', 'ne', 'apple'))).toEqual(['b', 'c', 'd', 'e']);
    expect(ids(where('n', 'ne', 'x'))).toEqual(['a', 'b', 'c', 'f']);
  });

  it('compares objects and arrays by JSON text', () => {
    expect(ids(where('model', 'eq', { tag: 'green' }))).toEqual(['b']);
    expect(ids(where('tags', 'eq', ['y']))).toEqual(['e']);
    expect(ids(where('tags', 'eq', 'y'))).toEqual([]);
  });
});

describe('lt / le / gt / ge', () => {
  it('compares numbers numerically', () => {
    expect(ids(where('n', 'gt', 9))).toEqual(['b', 'f']);
    expect(ids(where('n', 'ge', 9))).toEqual(['a', 'b', 'f']);
    expect(ids(where('n', 'lt', 10))).toEqual(['a', 'c']);
    expect(ids(where('n', 'le', 2))).toEqual(['c']);
  });

  it('compares strings lexicographically and case-sensitively', () => {
    expect(ids(where('s', 'lt', 'b'))).toEqual(['a', 'b', 'd']);
    expect(ids(where('s', 'ge', 'cherry'))).toEqual(['c', 'e']);
    expect(ids(where('s', 'gt', '1'))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('compares booleans as false < true', () => {
    expect(ids(where('b', 'lt', true))).toEqual(['b', 'e']);
  });

  it('is false for mixed types and NULL', () => {
    expect(ids(where('s', 'gt', 0))).toEqual([]);
    expect(ids(where('n', 'lt', '99'))).toEqual([]);
    expect(ids(where('n', 'lt', null))).toEqual([]);
    expect(ids(where('n', 'ge', null))).toEqual([]);
    expect(ids(where('model', 'gt', 'a'))).toEqual([]);
  });
});

describe('match', () => {
  it('is case-sensitive substring containment on strings', () => {
    expect(ids(where('s', 'match', 'an'))).toEqual(['b']);
    expect(ids(where('s', 'match', 'a'))).toEqual(['a', 'b', 'e']);
    expect(ids(where('s', 'match', 'B'))).toEqual(['b']);
    expect(ids(where('s', 'match', ''))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('looks into the JSON text of objects, arrays and numbers', () => {
    expect(ids(where('model', 'match', '"red"'))).toEqual(['a', 'f']);
    expect(ids(where('model', 'match', 'level'))).toEqual(['a', 'f']);
    expect(ids(where('tags', 'match', 'y'))).toEqual(['a', 'e']);
    expect(ids(where('n', 'match', '1'))).toEqual(['b', 'f']);
  });

  it('never matches NULL', () => {
    expect(ids(where('model.tag', 'match', ''))).toEqual(['a', 'b', 'f']);
  });
});

describe('dotted paths', () => {
  it('reads nested fields', () => {
    expect(ids(where('model.tag', 'eq', 'red'))).toEqual(['a', 'f']);
    expect(ids(where('model.meta.level', 'gt', 1))).toEqual(['f']);
    expect(ids(where('tags.0', 'eq', 'y'))).toEqual(['e']);
  });

  it('treats a missing step as NULL', () => {
    expect(ids(where('model.tag', 'eq', null))).toEqual(['c', 'd', 'e']);
    expect(ids(where('model.meta.level', 'eq', null))).toEqual(['b', 'c', 'd', 'e']);
  });

  it('reads own properties only', () => {
    expect(ids(where('model.constructor', 'ne', null))).toEqual([]);
    expect(ids(where('s.length', 'ne', null))).toEqual([]);
  });
});

describe('order_by', () => {
  it('sorts numbers numerically with nulls first', () => {
    expect(ids({ order_by: [{ field: 'n', order: 'asc' }] })).toEqual(['d', 'e', 'c', 'a', 'b', 'f']);
  });

  it('sorts desc with nulls last', () => {
    expect(ids({ order_by: [{ field: 'n', order: 'desc' }] })).toEqual(['b', 'f', 'a', 'c', 'd', 'e']);
  });

  it('sorts strings lexicographically', () => {
    expect(ids({ order_by: ['s'] })).toEqual(['f', 'd', 'b', 'a', 'c', 'e']);
  });

  it('accepts the +f / -f / f shorthands', () => {
    expect(ids({ order_by: ['+n'] })).toEqual(ids({ order_by: [{ field: 'n', order: 'asc' }] }));
    expect(ids({ order_by: ['n'] })).toEqual(ids({ order_by: [{ field: 'n', order: 'asc' }] }));
    expect(ids({ order_by: ['-n'] })).toEqual(ids({ order_by: [{ field: 'n', order: 'desc' }] }));
  });

  it('uses later keys to break ties and keeps input order for full ties', () => {
    expect(ids({ order_by: ['-n', '-id'] })).toEqual(['f', 'b', 'a', 'c', 'e', 'd']);
    expect(ids({ order_by: ['b', 'n'] })).toEqual(['d', 'e', 'b', 'c', 'a', 'f']);
    expect(ids({ order_by: ['b'] })).toEqual(['d', 'b', 'e', 'a', 'c', 'f']);
  });

  it('sorts by dotted paths', () => {
    expect(ids({ order_by: ['-model.meta.level'] })).toEqual(['f', 'a', 'b', 'c', 'd', 'e']);
  });

  it('orders mixed types as NULL < numbers < text', () => {
    const mixed = [
      { id: '1', v: 'x' },
      { id: '2', v: 100 },
      { id: '3', v: null },
      { id: '4', v: { a: 1 } },
      { id: '5', v: -1 },
      { id: '6', v: '10' },
    ];
    expect(runQuery(mixed, { order_by: ['v'] }).rows.map((row) => row.id)).toEqual(['3', '5', '2', '6', '1', '4']);
  });

  it('does not reorder the input', () => {
    const rows = [{ id: 'y' }, { id: 'x' }];
    runQuery(rows, { order_by: ['id'] });
    expect(rows.map((row) => row.id)).toEqual(['y', 'x']);
  });
});

describe('paging', () => {
  it('defaults to offset 0 and limit 100000', () => {
    expect(runQuery(items)).toMatchObject({ count: 6, page_num: 1, page_count: 1, page_size: 100_000 });
  });

  it('computes count, page_num and page_count', () => {
    const page = runQuery(items, { offset: 4, limit: 2, order_by: ['id'] });
    expect(page).toMatchObject({ count: 6, page_num: 3, page_count: 3, page_size: 2 });
    expect(page.rows.map((row) => row.id)).toEqual(['e', 'f']);
    expect(runQuery(items, { offset: 3, limit: 4 })).toMatchObject({ count: 6, page_num: 1, page_count: 2, page_size: 4 });
    expect(runQuery(items, { offset: 4, limit: 4 }).rows.map((row) => row.id)).toEqual(['e', 'f']);
  });

  it('counts matches before paging', () => {
    const page = runQuery(items, { filter: and({ key: 'n', op: 'ge', value: 9 }), limit: 1, order_by: ['-id'] });
    expect(page).toMatchObject({ count: 3, page_num: 1, page_count: 3, page_size: 1 });
    expect(page.rows.map((row) => row.id)).toEqual(['f']);
  });

  it('returns no rows past the end but keeps the count', () => {
    expect(runQuery(items, { offset: 10, limit: 5 })).toEqual({ count: 6, page_num: 3, page_count: 2, page_size: 5, rows: [] });
  });

  it('reports zero pages for no matches', () => {
    expect(runQuery(items, { filter: or(), limit: 10 })).toEqual({ count: 0, page_num: 1, page_count: 0, page_size: 10, rows: [] });
  });
});

describe('validation', () => {
  it('rejects bad paging', () => {
    expectInvalid({ offset: -1 }, /offset must be an integer >= 0, got -1/);
    expectInvalid({ offset: 1.5 }, /offset/);
    expectInvalid({ limit: 0 }, /limit must be an integer >= 1, got 0/);
    expectInvalid({ limit: Number.NaN }, /limit/);
    expectInvalid({ limit: '10' }, /limit/);
  });

  it('rejects malformed filters', () => {
    expectInvalid(where('n', 'like' as QueryExpr['op'], 1), /unknown op 'like' on key 'n'/);
    expectInvalid({ filter: { type: 'xor', exprs: [] } }, /unknown filter type 'xor'/);
    expectInvalid({ filter: { type: 'and' } }, /exprs array/);
    expectInvalid(where('', 'eq', 1), /non-empty string key/);
    expectInvalid(where('model..tag', 'eq', 1), /empty path segment/);
    expectInvalid(where('s', 'match', 1), /match on key 's' needs a string value/);
    expectInvalid({ filter: and(or({ key: 'n', op: 'nope', value: 1 } as unknown as QueryExpr)) }, /unknown op 'nope'/);
  });

  it('validates the filter even when no rows would be tested', () => {
    expect(() => runQuery([], where('n', 'bad' as QueryExpr['op'], 1))).toThrow(/unknown op/);
  });

  it('rejects malformed order_by', () => {
    expectInvalid({ order_by: ['-'] }, /order_by item '-' has no field/);
    expectInvalid({ order_by: [{ field: 'n', order: 'up' }] }, /unknown order 'up'/);
    expectInvalid({ order_by: [{ field: '', order: 'asc' }] }, /non-empty field/);
    expectInvalid({ order_by: 'n' }, /order_by must be an array/);
  });
});
