/**
 * The SQL of the store's writes, for both providers (Prisma's query interpreter costs about a
 * millisecond per write; a plain parameterised statement through the same client a fifth of that).
 * Filtered reads (`Collection.query`) stay on Prisma's query API (where.ts); the named queries are
 * sql/*. Identifiers come from columns.ts, never from input.
 *
 * State: a cache of the statement texts per table, backend and row count.
 */
import { SEQ, type Table } from './columns.ts';
import type { TaskRef } from './contract/types.ts';
import type { DbRecord } from './mapping.ts';
import type { SqlBackend } from './sql-backend.ts';
import { PG_FENCE_SQL } from './sql/fence-processes.ts';

const quote = (name: string): string => `"${name}"`;

const insertColumnLists = new WeakMap<Table, readonly string[]>();

/** Columns of an insert: the row fields, then `seq` (one list per table: every row written walks it). */
export function insertColumns(table: Table): readonly string[] {
  let columns = insertColumnLists.get(table);
  if (!columns) insertColumnLists.set(table, (columns = [...Object.keys(table.columns), SEQ]));
  return columns;
}

/** Columns an update / upsert overwrites: everything but the key and the insertion order. */
const updatedColumns = (table: Table): string[] => Object.keys(table.columns).filter((column) => column !== 'id');

const cache = new Map<string, string>();
/** Multi-row inserts of at most this many rows keep their text in the cache. */
const CACHED_ROWS = 128;

function cached(key: string, build: () => string): string {
  let sql = cache.get(key);
  if (sql === undefined) cache.set(key, (sql = build()));
  return sql;
}

function placeholders(backend: SqlBackend, first: number, count: number): string {
  const slots: string[] = [];
  for (let i = 0; i < count; i++) slots.push(backend === 'postgresql' ? `$${first + i}` : '?');
  return `(${slots.join(', ')})`;
}

/**
 * INSERT of `rows` rows (parameters: insertColumns per row, row after row). `ignore`: an existing
 * id leaves the row alone (the affected count tells); `replace`: it overwrites all but `seq`.
 */
export function insertSql(table: Table, backend: SqlBackend, rows: number, onConflict: 'ignore' | 'replace'): string {
  const build = () => {
    const columns = insertColumns(table);
    const tuples: string[] = [];
    for (let row = 0; row < rows; row++) tuples.push(placeholders(backend, row * columns.length + 1, columns.length));
    const conflict =
      onConflict === 'ignore'
        ? 'DO NOTHING'
        : `DO UPDATE SET ${updatedColumns(table)
            .map((column) => `${quote(column)} = excluded.${quote(column)}`)
            .join(', ')}`;
    return `INSERT INTO ${quote(table.sqlName)} (${columns.map(quote).join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (${quote('id')}) ${conflict}`;
  };
  // batches repeat their sizes: the texts of up to CACHED_ROWS rows are kept (a few MB at most)
  return rows <= CACHED_ROWS ? cached(`${table.sqlName}:${backend}:insert:${onConflict}:${rows}`, build) : build();
}

/**
 * PostgreSQL: the upsert of any number of rows given as ONE parameter, a JSON array of records
 * (insertColumns each; times as numbers): one statement text per table, so it is prepared once
 * per connection, and the rows cross as one JSON text instead of a parameter per value.
 */
export function upsertFromJsonSql(table: Table): string {
  return cached(`${table.sqlName}:postgresql:upsert-json`, () => upsertFromJson(table, 1, ''));
}

/** The upsert of the JSON array in parameter `slot`, its rows taken only when `condition` (SQL) holds. */
function upsertFromJson(table: Table, slot: number, condition: string): string {
  const columns = insertColumns(table).map(quote).join(', ');
  const sets = updatedColumns(table)
    .map((column) => `${quote(column)} = excluded.${quote(column)}`)
    .join(', ');
  const where = condition ? ` WHERE ${condition}` : '';
  return `INSERT INTO ${quote(table.sqlName)} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${quote(table.sqlName)}, $${slot}::json)${where} ON CONFLICT (${quote('id')}) DO UPDATE SET ${sets}`;
}

/** DELETE of a table's rows of each (pid, tid) of `pairs`: its text and parameters. */
export function deletePairs(table: Table, backend: SqlBackend, pairs: readonly TaskRef[]): { sql: string; params: string[] } {
  const slot = (i: number) => (backend === 'postgresql' ? `$${i + 1}` : '?');
  const terms = pairs.map((_, i) => `("pid" = ${slot(2 * i)} AND "tid" = ${slot(2 * i + 1)})`);
  return { sql: `DELETE FROM ${quote(table.sqlName)} WHERE ${terms.join(' OR ')}`, params: pairs.flatMap((pair) => [pair.pid, pair.tid]) };
}

/**
 * PostgreSQL: a whole write batch of upserts (and deletions by (pid, tid)) as ONE statement in
 * autocommit (pg-write-batch.ts): each table's rows as one JSON parameter (after the fence's, in
 * the order of `tables`) into data-modifying CTEs; then, for each table of `deletions`, its
 * (pid, tid) pairs as one JSON parameter and the ids the batch upserts into that table (a text
 * array: those rows stay, as if the deletion had run first). `guarded`: the fence comes first
 * (`$1` the pids, `$2` the owner, `$3` the fresh pids; locks as Store.fenceProcesses does) and
 * when it finds a process owned by another instance, or a row of a fresh pid, no row is written
 * or deleted; the statement returns those processes' ids (no rows when it wrote).
 */
export function upsertBatchFromJsonSql(tables: readonly Table[], guarded: boolean, deletions: readonly Table[] = []): string {
  const key = `batch:${guarded ? 'guarded' : 'open'}:${tables.map((table) => table.sqlName).join(',')}:${deletions.map((table) => table.sqlName).join(',')}`;
  return cached(key, () => {
    const parts: string[] = [];
    if (guarded) {
      parts.push(`"fence" AS (${PG_FENCE_SQL})`, `"lost" AS (SELECT "id" FROM "fence" WHERE ("owner" IS NOT NULL AND "owner" <> $2) OR "id" = ANY($3::text[]))`);
    }
    const first = guarded ? 4 : 1;
    const condition = guarded ? 'NOT EXISTS (SELECT 1 FROM "lost")' : '';
    tables.forEach((table, i) => parts.push(`"w${i}" AS (${upsertFromJson(table, first + i, condition)})`));
    deletions.forEach((table, i) => {
      const pairs = first + tables.length + 2 * i;
      const keep = pairs + 1;
      const where = `("pid", "tid") IN (SELECT "pid", "tid" FROM json_to_recordset($${pairs}::json) AS "p"("pid" text, "tid" text)) AND "id" <> ALL($${keep}::text[])${condition ? ` AND ${condition}` : ''}`;
      parts.push(`"d${i}" AS (DELETE FROM ${quote(table.sqlName)} WHERE ${where})`);
    });
    return `WITH ${parts.join(', ')} ${guarded ? 'SELECT "id" FROM "lost"' : 'SELECT NULL::text AS "id" WHERE false'}`;
  });
}

/** The parameters of one row of insertSql. */
export function insertParams(table: Table, record: DbRecord, into: unknown[] = []): unknown[] {
  for (const column of insertColumns(table)) into.push(record[column] ?? null);
  return into;
}

/** UPDATE of one row by id (parameters: updateParams). */
export function updateSql(table: Table, backend: SqlBackend): string {
  return cached(`${table.sqlName}:${backend}:update`, () => {
    const columns = updatedColumns(table);
    const slot = (i: number) => (backend === 'postgresql' ? `$${i + 1}` : '?');
    const sets = columns.map((column, i) => `${quote(column)} = ${slot(i)}`).join(', ');
    return `UPDATE ${quote(table.sqlName)} SET ${sets} WHERE ${quote('id')} = ${slot(columns.length)}`;
  });
}

export function updateParams(table: Table, record: DbRecord): unknown[] {
  return [...updatedColumns(table).map((column) => record[column] ?? null), record.id];
}

/** DELETE of one row by id (parameter: the id). */
export function deleteSql(table: Table, backend: SqlBackend): string {
  return cached(`${table.sqlName}:${backend}:delete`, () => `DELETE FROM ${quote(table.sqlName)} WHERE ${quote('id')} = ${backend === 'postgresql' ? '$1' : '?'}`);
}

/** SELECT of one row by id (parameter: the id): every column, or only the id (`existence`). */
export function selectByIdSql(table: Table, backend: SqlBackend, existence = false): string {
  return cached(`${table.sqlName}:${backend}:select:${existence}`, () => {
    const columns = existence ? ['id'] : Object.keys(table.columns);
    return `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table.sqlName)} WHERE ${quote('id')} = ${backend === 'postgresql' ? '$1' : '?'}`;
  });
}
