/**
 * Row ↔ record conversion for one table: JSON values to and from JSON text, null ↔ NULL; epoch-ms
 * times stay JS numbers (safe integers; the drivers bind them to BIGINT columns as integers) and
 * are read back from a bigint or a string (records read straight from the drivers: `pg` gives
 * BIGINT as a string, booleans as 0/1 from SQLite). Rejects what a column cannot hold with a clear
 * ActError('internal') instead of a Prisma validation dump.
 */
import { ActError } from '../engine/errors.ts';
import type { Column, Table } from './columns.ts';

export type DbRecord = Record<string, unknown>;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

function fail(table: Table, id: unknown, message: string): never {
  throw new ActError('internal', `${table.name} row '${String(id)}': ${message}`);
}

/** The id of a row, checked like the in-memory store does. */
export function rowId(table: Table, row: unknown): string {
  const id: unknown = (row as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') {
    throw new ActError('internal', `${table.name} row needs a non-empty string id, got ${String(id)}`);
  }
  return id;
}

function toDb(table: Table, id: string, field: string, column: Column, value: unknown): unknown {
  if (value === null || value === undefined) {
    if (column.nullable) return null;
    fail(table, id, `field '${field}' is required, got ${String(value)}`);
  }
  switch (column.kind) {
    case 'string':
      if (typeof value !== 'string') fail(table, id, `field '${field}' must be a string, got ${typeof value}`);
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
        fail(table, id, `field '${field}' must be a 32-bit integer, got ${String(value)}`);
      }
      return value;
    case 'time':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
        fail(table, id, `field '${field}' must be an integer (epoch ms), got ${String(value)}`);
      }
      return value;
    case 'bool':
      if (typeof value !== 'boolean') fail(table, id, `field '${field}' must be a boolean, got ${typeof value}`);
      return value;
    case 'json': {
      let text: string | undefined;
      try {
        text = JSON.stringify(value);
      } catch (err) {
        fail(table, id, `field '${field}' cannot be stored as JSON: ${(err as Error).message}`);
      }
      return text ?? null; // JSON.stringify gives undefined for functions and symbols
    }
  }
}

/** A table's columns as a list, made once per table: every row written or read walks it. */
const columnLists = new WeakMap<Table, ReadonlyArray<readonly [string, Column]>>();

function columnsOf(table: Table): ReadonlyArray<readonly [string, Column]> {
  let list = columnLists.get(table);
  if (!list) columnLists.set(table, (list = Object.entries(table.columns)));
  return list;
}

/**
 * The column values of a row (without `seq`). Rejects fields the table has no column for, so a
 * field added to a row type without a column fails loudly instead of being dropped.
 */
export function toRecord(table: Table, row: object): DbRecord {
  const id = rowId(table, row);
  const fields = row as Record<string, unknown>;
  const record: DbRecord = {};
  for (const [field, column] of columnsOf(table)) record[field] = toDb(table, id, field, column, fields[field]);
  for (const field in fields) {
    if (!Object.hasOwn(table.columns, field) && Object.hasOwn(fields, field) && fields[field] !== undefined) {
      fail(table, id, `${table.name} has no column '${field}' (add it to prisma/models.prisma and server/store/columns.ts)`);
    }
  }
  return record;
}

function fromDb(table: Table, id: unknown, field: string, column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    // Prisma gives BIGINT as a bigint; read straight from the drivers, PostgreSQL's `pg` gives it as a string
    case 'time':
    case 'int':
      return typeof value === 'bigint' || typeof value === 'string' ? Number(value) : value;
    // SQLite has no boolean: Prisma reads 0/1 as false/true, better-sqlite3 gives the integer
    case 'bool':
      return typeof value === 'number' || typeof value === 'bigint' ? Number(value) !== 0 : value;
    case 'json':
      try {
        return JSON.parse(value as string);
      } catch (err) {
        fail(table, id, `column '${field}' holds invalid JSON (${(err as Error).message})`);
      }
    // eslint-disable-next-line no-fallthrough
    default:
      return value;
  }
}

/** The row a stored record stands for (fields in the table's column order, `seq` dropped). */
export function fromRecord<T>(table: Table, record: DbRecord): T {
  const row: Record<string, unknown> = {};
  for (const [field, column] of columnsOf(table)) row[field] = fromDb(table, record.id, field, column, record[field]);
  return row as T;
}
