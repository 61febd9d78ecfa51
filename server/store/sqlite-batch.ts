/**
 * A batch on SQLite run straight on the store's connection (issue 12): `BEGIN IMMEDIATE`, the
 * batch's writes as prepared statements kept per connection, `COMMIT` — and the store's single
 * statements outside batches on the same prepared statements — instead of a Prisma
 * interactive transaction, whose machinery and per-statement prepare cost more than the writes
 * themselves. The store's gate keeps every other operation out meanwhile (on one connection they
 * would run inside the transaction); reads inside the batch go through Prisma on the same
 * connection, so they see its writes.
 *
 * State: per connection, its prepared statements by SQL text (at most MAX_STATEMENTS, oldest dropped).
 */
import type Database from 'better-sqlite3';

type Db = Database.Database;

const MAX_STATEMENTS = 500;
const prepared = new WeakMap<Db, Map<string, Database.Statement>>();

function statement(db: Db, sql: string): Database.Statement {
  let cache = prepared.get(db);
  if (!cache) prepared.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
    if (cache.size > MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
  }
  return stmt;
}

/** SQLite binds numbers, strings, bigints, buffers and null: a boolean is stored as 1 or 0 (as Prisma does). */
const bindable = (value: unknown): unknown => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** Runs a write on `db`; the number of rows it changed. */
export function executeOn(db: Db, sql: string, params: readonly unknown[]): number {
  return statement(db, sql).run(params.map(bindable)).changes;
}

/** Runs a statement that returns rows on `db`. */
export function queryOn(db: Db, sql: string, params: readonly unknown[]): Array<Record<string, unknown>> {
  return statement(db, sql).all(params.map(bindable)) as Array<Record<string, unknown>>;
}

/** Runs `work` in one write transaction on `db`: committed when it resolves, rolled back when it rejects. */
export async function inSqliteTransaction(db: Db, work: () => Promise<void>): Promise<void> {
  statement(db, 'BEGIN IMMEDIATE').run();
  try {
    await work();
    statement(db, 'COMMIT').run();
  } catch (err) {
    if (db.inTransaction) statement(db, 'ROLLBACK').run();
    throw err;
  }
}
