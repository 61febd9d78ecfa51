/**
 * Pure evaluation of the store query language (spec 4.2) with SQL semantics (spec 0.13): filter,
 * order and paging over plain rows. The in-memory store uses it directly; tests use it as the
 * reference the Prisma store must agree with.
 *
 * Semantics (the reference's in-memory quirks are deliberately not reproduced):
 * - `and` of nothing matches everything, `or` of nothing matches nothing (as Prisma's `AND: []` /
 *   `OR: []`); an `and` with a branch matching nothing matches nothing.
 * - Values are read by key, or by a dotted path into nested objects (`model.tag`); a missing value
 *   is NULL. `eq null` / `ne null` are `IS NULL` / `IS NOT NULL`.
 * - `eq` / `ne` need both sides of the same type (number, string, boolean; objects and arrays
 *   compare by JSON text); any other comparison with NULL is false, like SQL's three-valued logic.
 *   `ne` between different types is true.
 * - `lt` / `le` / `gt` / `ge` compare numbers numerically, strings lexicographically (UTF-16 code
 *   units) and booleans as false < true; mixed types compare false.
 * - `match` is case-sensitive containment (`LIKE '%v%'`): in the string itself, or in the JSON text
 *   of any other value; its value must be a string.
 * - Ordering puts NULL first, then numbers (booleans as 0/1), then strings and JSON text of objects
 *   (SQLite's order); `desc` reverses it. Ties keep the input order.
 */
import { ActError } from '../../engine/errors.ts';
import type { OrderBy, PageData, Query, QueryExpr, QueryFilter, QueryOp } from './types.ts';

export const DEFAULT_OFFSET = 0;
export const DEFAULT_LIMIT = 100_000;

const OPS: ReadonlySet<string> = new Set<QueryOp>(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'match']);

export type Predicate = (row: object) => boolean;

/** A validated query, ready to run. */
export interface CompiledQuery {
  offset: number;
  limit: number;
  /** The validated filter, kept for planners (index selection). */
  filter?: QueryFilter;
  predicate: Predicate;
  order: OrderBy[];
}

function invalid(message: string): never {
  throw new ActError('internal', `invalid query: ${message}`);
}

/** True when the item of a filter's `exprs` is a nested filter rather than an expression. */
export function isFilter(item: QueryExpr | QueryFilter): item is QueryFilter {
  return typeof item === 'object' && item !== null && 'exprs' in item;
}

/** Returns a reader for `key`: a field name or a dotted path; own properties only. */
export function pathReader(key: string): (row: object) => unknown {
  const parts = key.split('.');
  if (parts.some((part) => part === '')) invalid(`key '${key}' has an empty path segment`);
  return (row) => {
    let current: unknown = row;
    for (const part of parts) {
      if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return undefined;
      current = (current as Record<string, unknown>)[part];
    }
    return current;
  };
}

const isNull = (value: unknown): boolean => value === null || value === undefined;

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** SQL `=` for two non-null values. */
function equal(a: unknown, b: unknown): boolean {
  const type = typeof a;
  if (type !== typeof b) return false;
  if (type === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** Sign of `a - b`, or undefined when the values are not comparable (NULL, mixed, objects, NaN). */
function compareScalars(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return undefined;
}

function compileExpr(expr: QueryExpr): Predicate {
  if (typeof expr !== 'object' || expr === null) invalid('an expression must be an object');
  const { key, op } = expr;
  if (typeof key !== 'string' || key === '') invalid('an expression needs a non-empty string key');
  if (!OPS.has(op)) invalid(`unknown op '${String(op)}' on key '${key}' (expected one of ${[...OPS].join(', ')})`);
  const read = pathReader(key);
  const value = expr.value === undefined ? null : expr.value;

  switch (op) {
    case 'eq':
      if (value === null) return (row) => isNull(read(row));
      return (row) => {
        const field = read(row);
        return !isNull(field) && equal(field, value);
      };
    case 'ne':
      if (value === null) return (row) => !isNull(read(row));
      return (row) => {
        const field = read(row);
        return !isNull(field) && !equal(field, value);
      };
    case 'match': {
      if (typeof value !== 'string') invalid(`match on key '${key}' needs a string value`);
      return (row) => {
        const field = read(row);
        return !isNull(field) && jsonText(field).includes(value);
      };
    }
    default: {
      const test = comparisonTest(op);
      return (row) => {
        const sign = compareScalars(read(row), value);
        return sign !== undefined && test(sign);
      };
    }
  }
}

function comparisonTest(op: 'lt' | 'le' | 'gt' | 'ge'): (sign: number) => boolean {
  switch (op) {
    case 'lt':
      return (sign) => sign < 0;
    case 'le':
      return (sign) => sign <= 0;
    case 'gt':
      return (sign) => sign > 0;
    case 'ge':
      return (sign) => sign >= 0;
  }
}

/** Validates a filter and turns it into a row predicate. */
export function compileFilter(filter: QueryFilter): Predicate {
  if (typeof filter !== 'object' || filter === null) invalid('a filter must be an object');
  if (filter.type !== 'and' && filter.type !== 'or') {
    invalid(`unknown filter type '${String(filter.type)}' (expected and, or)`);
  }
  if (!Array.isArray(filter.exprs)) invalid(`filter '${filter.type}' needs an exprs array`);
  const parts = filter.exprs.map((item) => (isFilter(item) ? compileFilter(item) : compileExpr(item)));
  if (filter.type === 'and') return (row) => parts.every((part) => part(row));
  return (row) => parts.some((part) => part(row));
}

/** Normalises `order_by` items (objects or `+f` / `-f` / `f` shorthand) into `OrderBy`s. */
export function parseOrderBy(items: Query['order_by']): OrderBy[] {
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) invalid('order_by must be an array');
  return items.map((item): OrderBy => {
    if (typeof item === 'string') {
      const order = item.startsWith('-') ? 'desc' : 'asc';
      const field = item.startsWith('-') || item.startsWith('+') ? item.slice(1) : item;
      if (field === '') invalid(`order_by item '${item}' has no field`);
      pathReader(field);
      return { field, order };
    }
    if (typeof item !== 'object' || item === null) invalid('an order_by item must be a string or an object');
    if (typeof item.field !== 'string' || item.field === '') invalid('an order_by item needs a non-empty field');
    if (item.order !== 'asc' && item.order !== 'desc') {
      invalid(`order_by '${item.field}' has unknown order '${String(item.order)}' (expected asc, desc)`);
    }
    pathReader(item.field);
    return { field: item.field, order: item.order };
  });
}

function checkInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    invalid(`${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** Validates a query and compiles it; throws `ActError('internal')` on a malformed query. */
export function compileQuery(query: Query = {}): CompiledQuery {
  if (typeof query !== 'object' || query === null) invalid('a query must be an object');
  const offset = query.offset === undefined ? DEFAULT_OFFSET : checkInteger('offset', query.offset, 0);
  const limit = query.limit === undefined ? DEFAULT_LIMIT : checkInteger('limit', query.limit, 1);
  const filter = query.filter ?? undefined;
  const predicate: Predicate = filter ? compileFilter(filter) : () => true;
  return { offset, limit, filter, predicate, order: parseOrderBy(query.order_by) };
}

/** Sort key of a value in SQLite's order: NULL, then numbers, then text. */
type SortKey = readonly [rank: 0] | readonly [rank: 1, value: number] | readonly [rank: 2, value: string];

function sortKey(value: unknown): SortKey {
  if (isNull(value) || (typeof value === 'number' && Number.isNaN(value))) return [0];
  if (typeof value === 'number') return [1, value];
  if (typeof value === 'boolean') return [1, Number(value)];
  return [2, jsonText(value)];
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[0] === 0) return 0;
  const x = a[1] as number | string;
  const y = b[1] as number | string;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Returns the rows sorted by `order` (a new array; ties keep the input order). */
export function sortRows<T extends object>(rows: T[], order: readonly OrderBy[]): T[] {
  if (order.length === 0) return rows;
  const readers = order.map((item) => pathReader(item.field));
  const signs = order.map((item) => (item.order === 'desc' ? -1 : 1));
  const decorated = rows.map((row) => ({ row, keys: readers.map((read) => sortKey(read(row))) }));
  decorated.sort((a, b) => {
    for (let i = 0; i < signs.length; i++) {
      const diff = compareKeys(a.keys[i], b.keys[i]);
      if (diff !== 0) return diff * signs[i];
    }
    return 0;
  });
  return decorated.map((item) => item.row);
}

/** Cuts one page out of the full, ordered list of matches. */
export function toPage<T>(matches: T[], offset: number, limit: number): PageData<T> {
  return {
    count: matches.length,
    page_num: Math.floor(offset / limit) + 1,
    page_count: Math.ceil(matches.length / limit),
    page_size: limit,
    rows: matches.slice(offset, offset + limit),
  };
}

/** Filters, orders and pages candidate rows with an already compiled query. */
export function selectRows<T extends object>(candidates: Iterable<T>, compiled: CompiledQuery): PageData<T> {
  const matches: T[] = [];
  for (const row of candidates) if (compiled.predicate(row)) matches.push(row);
  return toPage(sortRows(matches, compiled.order), compiled.offset, compiled.limit);
}

/** Runs a query over rows (in their given order); returns the rows themselves, not copies. */
export function runQuery<T extends object>(rows: Iterable<T>, query?: Query): PageData<T> {
  return selectRows(rows, compileQuery(query));
}
