/**
 * Short builders of the query language (spec 4.2) and readers over a `Collection`, for the memory
 * store's named queries (memory-queries.ts and the server's): `and(eq('pid', pid), oneOf('status',
 * OPEN))` instead of the literal. Lists read every match (no page limit) unless given one.
 */
import type { Collection, OrderBy, QueryExpr, QueryFilter, QueryOp } from './types.ts';

type Item = QueryExpr | QueryFilter;

export const is = (key: string, op: QueryOp, value: unknown): QueryExpr => ({ key, op, value });
export const eq = (key: string, value: unknown): QueryExpr => is(key, 'eq', value);
export const and = (...exprs: Item[]): QueryFilter => ({ type: 'and', exprs });
export const or = (...exprs: Item[]): QueryFilter => ({ type: 'or', exprs });
/** `key` equals one of `values` (none: no row). */
export const oneOf = (key: string, values: readonly unknown[]): QueryFilter => or(...values.map((value) => eq(key, value)));

/** The matching rows, in `order` (then creation order), at most `limit`. */
export async function rowsOf<T extends { id: string }>(
  collection: Collection<T>,
  filter: QueryFilter,
  order: Array<OrderBy | string> = [],
  limit = Number.MAX_SAFE_INTEGER,
): Promise<T[]> {
  return (await collection.query({ filter, order_by: order, limit })).rows;
}

/** The first matching row in creation order. */
export async function firstOf<T extends { id: string }>(collection: Collection<T>, filter: QueryFilter): Promise<T | undefined> {
  return (await collection.query({ filter, limit: 1 })).rows[0];
}

/** How many rows match. */
export async function countOf<T extends { id: string }>(collection: Collection<T>, filter: QueryFilter): Promise<number> {
  return (await collection.query({ filter, limit: 1 })).count;
}
