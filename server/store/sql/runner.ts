/**
 * Runs the statement files of server/store/sql on a session (prisma-collection.ts): a file gives
 * the table and builds its text with the session's dialect (params.ts); the runner sends it as one
 * operation on that table — in a batch, after the table's queued upserts are written — and maps
 * the records back to rows (mapping.ts). `bindQueries` turns a set of statement files, each
 * `(db, …args)`, into the store's named queries `(…args)`.
 *
 * State: none; the session says which client or transaction runs the statements.
 */
import type { Table } from '../columns.ts';
import type { TaskRef } from '../contract/types.ts';
import { fromRecord, type DbRecord } from '../mapping.ts';
import type { Session } from '../prisma-collection.ts';
import { deletePairs } from '../statements.ts';
import { Params } from './params.ts';

/** Builds a statement's text, taking its values' placeholders from `p`. */
export type Build = (p: Params) => string;

export interface SqlRunner {
  /** The rows a SELECT of whole rows (`SELECT *`) returns. */
  rows<T>(table: Table, build: Build): Promise<T[]>;
  /** The records a SELECT of computed columns returns, as the driver gives them (not mapped to rows). */
  records(table: Table, build: Build): Promise<DbRecord[]>;
  /** The first of them (the statement says `LIMIT 1`). */
  first<T>(table: Table, build: Build): Promise<T | undefined>;
  /** Whether the SELECT returns a row. */
  exists(table: Table, build: Build): Promise<boolean>;
  /** The `n` of a `SELECT COUNT(*) AS "n"`. */
  count(table: Table, build: Build): Promise<number>;
  /** Runs a write; returns the number of rows it affected. */
  execute(table: Table, build: Build): Promise<number>;
  /**
   * Deletes the table's rows of each (pid, tid) of `pairs` — in a batch, queued with its upserts
   * (Session.deferPairDeletes), resolving to 0 —; else returns the number of rows deleted.
   */
  deletePairs(table: Table, pairs: readonly TaskRef[]): Promise<number>;
}

export function sqlRunner(session: Session): SqlRunner {
  const send = <R>(table: Table, build: Build, how: (sql: string, params: unknown[]) => Promise<R>): Promise<R> => {
    const p = new Params(session.backend);
    const sql = build(p);
    return session.run(table, () => how(sql, p.values));
  };
  const records = (table: Table, build: Build) => send(table, build, (sql, params) => session.query(sql, params));
  const rows = async <T>(table: Table, build: Build): Promise<T[]> => (await records(table, build)).map((record) => fromRecord<T>(table, record));
  return {
    rows,
    records,
    first: async <T>(table: Table, build: Build) => (await rows<T>(table, build))[0],
    exists: async (table, build) => (await records(table, build)).length > 0,
    count: async (table, build) => Number((await records(table, build))[0]?.n ?? 0),
    execute: (table, build) => send(table, build, (sql, params) => session.execute(sql, params)),
    deletePairs: async (table, pairs) => {
      if (pairs.length === 0) return 0;
      if (session.deferPairDeletes?.(table, pairs)) return 0;
      const { sql, params } = deletePairs(table, session.backend, pairs);
      return session.run(table, () => session.execute(sql, params));
    },
  };
}

/** A statement file's operation: the runner, then the query's own parameters. */
type Operation = (db: SqlRunner, ...args: never[]) => unknown;

/** The operations with the runner bound: what the store's named queries look like. */
export type Bound<Ops> = { [K in keyof Ops]: Ops[K] extends (db: SqlRunner, ...args: infer A) => infer R ? (...args: A) => R : never };

export function bindQueries<Ops extends { [K in keyof Ops]: Operation }>(db: SqlRunner, ops: Ops): Bound<Ops> {
  const bound: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(ops) as Array<[string, (db: SqlRunner, ...args: unknown[]) => unknown]>) {
    bound[name] = (...args: unknown[]) => op(db, ...args);
  }
  return bound as Bound<Ops>;
}
