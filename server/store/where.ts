/**
 * Translates the store query language (spec 4.2) into Prisma `where` / `orderBy` for one table,
 * keeping the in-memory store's semantics (server/store/contract/query.ts):
 * - `eq` / `ne` need the value's type to be the column's (else `eq` matches nothing and `ne` every
 *   non-NULL row); `eq null` / `ne null` are IS NULL / IS NOT NULL; `ne v` never matches NULL.
 * - `lt`/`le`/`gt`/`ge`: numbers on numeric columns (fractional or out-of-range bounds are rounded
 *   or clamped to the same answer), strings on text columns (byte order: SQLite BINARY, COLLATE "C"
 *   on PostgreSQL), booleans as false < true; any other type matches nothing.
 * - `match` is case-sensitive substring containment (LIKE '%v%'); on JSON columns it searches the
 *   stored JSON text.
 * - JSON columns compare by JSON text for `eq` / `ne`.
 * Not supported (a clear ActError('internal', 'cannot filter on …')): dotted keys into JSON
 * columns, unknown fields, `lt`/`le`/`gt`/`ge` with a value on JSON columns, `match` on numeric
 * columns.
 * An `or` of `eq` on one text column with text values (`oneOf`: a list of ids) becomes one
 * `IN (…)`: the same rows, without an expression tree as deep as the list (SQLite refuses more
 * than 1000 levels).
 * Ordering puts NULL first ascending (last descending) like the memory store; ties keep insertion
 * order (`seq`).
 * Known differences from the memory store, on JSON columns holding a bare string or number (the
 * engine stores objects there): `match` searches the JSON text (`"red"` with its quotes and
 * escapes, where the memory store searches `red`), and ordering compares JSON text (numbers as
 * text). Text compares by code point (SQLite BINARY / PostgreSQL COLLATE "C"), the memory store by
 * UTF-16 unit: they differ only between astral characters and U+E000–U+FFFF.
 */
import { ActError } from '../engine/errors.ts';
import { isFilter } from './contract/query.ts';
import type { OrderBy, QueryExpr, QueryFilter } from './contract/types.ts';
import { SEQ, type Column, type Table } from './columns.ts';
import type { SqlBackend } from './sql-backend.ts';

export type Where = Record<string, unknown>;

/** Matches every row. */
const TRUE: Where = {};
/** Matches no row. */
const FALSE: Where = { id: { in: [] } };

const INT_RANGE: Readonly<Record<'int' | 'time', readonly [number, number]>> = {
  int: [-(2 ** 31), 2 ** 31 - 1],
  time: [-(2 ** 63), 2 ** 63 - 1],
};

function unsupported(key: string, why: string): never {
  throw new ActError('internal', `cannot filter on '${key}': ${why}`);
}

function columnOf(table: Table, key: string, what = 'filter on'): Column {
  const column = Object.hasOwn(table.columns, key) ? table.columns[key] : undefined;
  if (column) return column;
  const head = key.split('.')[0];
  if (key.includes('.') && Object.hasOwn(table.columns, head)) {
    throw new ActError(
      'internal',
      `cannot ${what} '${key}': dotted paths into the JSON text column '${head}' are not supported by the SQL stores`,
    );
  }
  throw new ActError('internal', `cannot ${what} '${key}': ${table.name} has no field '${key}'`);
}

const isNull = (key: string, column: Column): Where => (column.nullable ? { [key]: null } : FALSE);
const notNull = (key: string, column: Column): Where => (column.nullable ? { [key]: { not: null } } : TRUE);

/** `key <> value` that, like SQL, never matches NULL. */
function notEqual(key: string, column: Column, value: unknown): Where {
  return column.nullable ? { AND: [{ [key]: { not: null } }, { [key]: { not: value } }] } : { [key]: { not: value } };
}

type Cmp = 'lt' | 'le' | 'gt' | 'ge';
const PRISMA_CMP: Readonly<Record<Cmp, string>> = { lt: 'lt', le: 'lte', gt: 'gt', ge: 'gte' };

/** `lt`/`le`/`gt`/`ge` on an integer column: an exact integer bound, or all / none of the non-NULL rows. */
function integerBound(op: Cmp, value: number, [min, max]: readonly [number, number]): number | 'all' | 'none' {
  if (Number.isNaN(value)) return 'none';
  switch (op) {
    case 'lt': {
      const b = Math.ceil(value);
      return b > max ? 'all' : b <= min ? 'none' : b;
    }
    case 'le': {
      const b = Math.floor(value);
      return b >= max ? 'all' : b < min ? 'none' : b;
    }
    case 'gt': {
      const b = Math.floor(value);
      return b < min ? 'all' : b >= max ? 'none' : b;
    }
    case 'ge': {
      const b = Math.ceil(value);
      return b <= min ? 'all' : b > max ? 'none' : b;
    }
  }
}

/** The subset of {false, true} a predicate accepts, as a where. */
function booleanSet(key: string, column: Column, accept: (b: boolean) => boolean): Where {
  const yes = accept(true);
  const no = accept(false);
  if (yes && no) return notNull(key, column);
  if (yes) return { [key]: true };
  if (no) return { [key]: false };
  return FALSE;
}

function compareBooleans(op: Cmp, a: boolean, b: boolean): boolean {
  const d = Number(a) - Number(b);
  return op === 'lt' ? d < 0 : op === 'le' ? d <= 0 : op === 'gt' ? d > 0 : d >= 0;
}

/**
 * The `contains` value for a LIKE '%v%' search of v as literal text. PostgreSQL: escape the
 * wildcards with its default escape character. SQLite: nothing to do, its connection replaces
 * LIKE with literal containment (sqlite-connection.ts).
 */
function containsValue(value: string, backend: SqlBackend): string {
  return backend === 'postgresql' ? value.replace(/[\\%_]/g, (c) => `\\${c}`) : value;
}

function exprWhere(table: Table, expr: QueryExpr, backend: SqlBackend): Where {
  const { key, op } = expr;
  const column = columnOf(table, key);
  const value = expr.value === undefined ? null : expr.value;

  if (value === null) {
    if (op === 'eq') return isNull(key, column);
    if (op === 'ne') return notNull(key, column);
    return FALSE; // any comparison with NULL is false (match with null is rejected by validation)
  }

  switch (column.kind) {
    case 'string':
      if (op === 'match') return { [key]: { contains: containsValue(value as string, backend) } };
      if (typeof value !== 'string') return op === 'ne' ? notNull(key, column) : FALSE;
      if (op === 'eq') return { [key]: value };
      if (op === 'ne') return notEqual(key, column, value);
      return { [key]: { [PRISMA_CMP[op]]: value } };

    case 'int':
    case 'time': {
      if (op === 'match') unsupported(key, `match needs a text or JSON field; '${key}' is numeric`);
      const range = INT_RANGE[column.kind];
      const toDb = (n: number): unknown => (column.kind === 'time' ? BigInt(n) : n);
      if (typeof value !== 'number') return op === 'ne' ? notNull(key, column) : FALSE;
      const exact = Number.isInteger(value) && value >= range[0] && value <= range[1];
      if (op === 'eq') return exact ? { [key]: toDb(value) } : FALSE;
      if (op === 'ne') return exact ? notEqual(key, column, toDb(value)) : notNull(key, column);
      const bound = integerBound(op, value, range);
      if (bound === 'all') return notNull(key, column);
      if (bound === 'none') return FALSE;
      return { [key]: { [PRISMA_CMP[op]]: toDb(bound) } };
    }

    case 'bool': {
      if (op === 'match') return booleanSet(key, column, (b) => String(b).includes(value as string));
      if (typeof value !== 'boolean') return op === 'ne' ? notNull(key, column) : FALSE;
      if (op === 'eq') return { [key]: value };
      if (op === 'ne') return notEqual(key, column, value);
      return booleanSet(key, column, (b) => compareBooleans(op, b, value));
    }

    case 'json': {
      if (op === 'match') return { [key]: { contains: containsValue(value as string, backend) } };
      if (op === 'eq' || op === 'ne') {
        const text = JSON.stringify(value);
        if (text === undefined) return op === 'ne' ? notNull(key, column) : FALSE;
        return op === 'eq' ? { [key]: text } : notEqual(key, column, text);
      }
      unsupported(key, `'${op}' cannot compare the JSON text column '${key}' (use eq, ne or match)`);
    }
  }
}

/** `key IN (values)` when `filter` is an `or` of `eq` on one text column, each with a text value; else null. */
function oneOfWhere(table: Table, filter: QueryFilter): Where | null {
  if (filter.type !== 'or' || filter.exprs.length < 2) return null;
  const first = filter.exprs[0];
  if (isFilter(first)) return null;
  const key = first.key;
  const values: string[] = [];
  for (const item of filter.exprs) {
    if (isFilter(item) || item.key !== key || item.op !== 'eq' || typeof item.value !== 'string') return null;
    values.push(item.value);
  }
  return columnOf(table, key).kind === 'string' ? { [key]: { in: values } } : null;
}

/** The Prisma `where` of a validated filter (run compileFilter first for the memory store's checks). */
export function filterWhere(table: Table, filter: QueryFilter, backend: SqlBackend): Where {
  const list = oneOfWhere(table, filter);
  if (list) return list;
  const parts = filter.exprs.map((item) => (isFilter(item) ? filterWhere(table, item, backend) : exprWhere(table, item, backend)));
  if (filter.type === 'and') {
    if (parts.includes(FALSE)) return FALSE;
    const rest = parts.filter((part) => part !== TRUE);
    return rest.length === 0 ? TRUE : rest.length === 1 ? rest[0] : { AND: rest };
  }
  if (parts.includes(TRUE)) return TRUE;
  const rest = parts.filter((part) => part !== FALSE);
  return rest.length === 0 ? FALSE : rest.length === 1 ? rest[0] : { OR: rest };
}

/** The Prisma `orderBy` of validated order items, ending with the insertion order as tie-breaker. */
export function orderByOf(table: Table, order: readonly OrderBy[]): Where[] {
  const items: Where[] = order.map(({ field, order: sort }) => {
    const column = columnOf(table, field, 'order by');
    return column.nullable ? { [field]: { sort, nulls: sort === 'asc' ? 'first' : 'last' } } : { [field]: sort };
  });
  items.push({ [SEQ]: 'asc' }, { id: 'asc' });
  return items;
}
