/** Paging, sorting and filtering inputs of list procedures, turned into the store's `Query`. */
import { z } from 'zod';
import type { Query, QueryExpr, QueryFilter } from '../runtime/read-model-types.ts';
import { LIMITS } from './limits.ts';

export const page = {
  offset: z.number().int().min(0).max(1_000_000).default(0),
  limit: z.number().int().min(1).max(LIMITS.pageSize).default(50),
};

/** An optional `{ field, order }` over the given sortable fields. */
export function sortBy<const F extends readonly [string, ...string[]]>(fields: F) {
  return z.object({ field: z.enum(fields), order: z.enum(['asc', 'desc']).default('desc') }).optional();
}

/** Builds a query: the defined filters (expressions or nested filters) ANDed, one sort order, the page. */
export function toQuery(
  filters: Array<QueryExpr | QueryFilter | null | undefined | false>,
  paging: { offset: number; limit: number },
  sort?: { field: string; order: 'asc' | 'desc' },
): Query {
  const exprs = filters.filter((f): f is QueryExpr | QueryFilter => !!f);
  return {
    offset: paging.offset,
    limit: paging.limit,
    ...(exprs.length > 0 ? { filter: { type: 'and' as const, exprs } } : {}),
    ...(sort ? { order_by: [{ field: sort.field, order: sort.order }] } : {}),
  };
}

/** `{ key eq value }` when the value is given. */
export function eq(key: string, value: unknown): QueryExpr | null {
  return value === undefined || value === null ? null : { key, op: 'eq', value };
}

/** The page in the shape every list procedure returns. */
export function pageOf<T>(data: { count: number; rows: T[] }, paging: { offset: number; limit: number }) {
  return { count: data.count, offset: paging.offset, limit: paging.limit, rows: data.rows };
}
