/**
 * The better-sqlite3 adapter factory of the SQLite store, preparing every connection it opens:
 * - WAL journal (readers do not block the writer), `synchronous = NORMAL` and a busy timeout,
 *   automatic checkpoints only past a bound (a thread of the store checkpoints: sqlite-checkpointer.ts),
 * - LIKE as literal, case-sensitive containment. Prisma's `contains` sends `x LIKE '%' || v || '%'`
 *   with no ESCAPE clause, so `%` and `_` inside v would be wildcards and ASCII case would be
 *   ignored. SQLite lets an application replace like(X, Y); the store's `match` only ever uses
 *   `contains`, so a pattern wrapped in one `%` each side is tested with String.includes, and any
 *   other pattern keeps SQLite's meaning (case-sensitively).
 * - SQLite's own bound on a statement's parameters (32,766 since 3.32) told to Prisma, whose
 *   default for SQLite is 999: a filter on a list of ids (`IN (…)`, where.ts) may name up to
 *   10,000 runs (the runs list's failing-node filter).
 * - Integers Prisma passes as BigInt (every BigInt column, and a page's LIMIT and OFFSET) bound
 *   as numbers while they are safe integers (`bindIntegersAsNumbers`). SQLite plans a statement
 *   again with a LIMIT bound as an integer, and then read the whole procs table and sorted it for
 *   the runs list's first page (ORDER BY start_time DESC, seq, id LIMIT 50) instead of walking
 *   the start_time index: 59 ms instead of 0.4 ms at 200,000 runs. Bound as a number, the LIMIT
 *   is planned as unknown, as every plan in test/store-indexes.test.ts is checked. Comparisons and
 *   stored values are the same: SQLite compares numbers by value and stores an integral number in
 *   an INTEGER column as an integer.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlQuery, SqlQueryable } from '@prisma/driver-adapter-utils';
import type Database from 'better-sqlite3';
import { WAL_BOUND_PAGES } from './sqlite-checkpointer.ts';

type SqliteDatabase = Database.Database;

/**
 * The connection the Prisma client of the store runs on (it opens it at its first query, again
 * after a disconnect): the store's batches run on it directly (sqlite-batch.ts).
 */
export interface SqliteConnectionHandle {
  db: SqliteDatabase | undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));

function likeRegExp(pattern: string): RegExp {
  let source = '';
  for (const c of pattern) source += c === '%' ? '[\\s\\S]*' : c === '_' ? '[\\s\\S]' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 'u');
}

/** like(pattern, value) as SQLite calls it for `value LIKE pattern`. */
export function literalLike(pattern: unknown, value: unknown): number | null {
  if (pattern === null || value === null) return null;
  const p = text(pattern);
  const v = text(value);
  if (p.length >= 2 && p.startsWith('%') && p.endsWith('%')) return v.includes(p.slice(1, -1)) ? 1 : 0;
  return likeRegExp(p).test(v) ? 1 : 0;
}

function prepare(db: SqliteDatabase): void {
  db.pragma('journal_mode = WAL');
  // stated, not left to how the file was opened (better-sqlite3 gives FULL to the connection that
  // turns WAL on, NORMAL to later ones): a commit is in the WAL file when it returns, so it
  // survives a process kill; a power loss or OS crash may lose the last commits (never consistency)
  db.pragma('synchronous = NORMAL');
  // checkpoints run on a thread of their own (sqlite-checkpointer.ts); this is only their bound
  db.pragma(`wal_autocheckpoint = ${WAL_BOUND_PAGES}`);
  db.function('like', { deterministic: true }, literalLike);
}

/** `query` with its BigInt arguments that are safe integers passed as numbers (see the file's comment). */
export function integersAsNumbers(query: SqlQuery): SqlQuery {
  let args = query.args;
  query.args.forEach((arg, i) => {
    // Prisma passes a BigInt as its decimal text, a raw query's value may be a bigint; a list is neither
    if (query.argTypes[i]?.scalarType !== 'bigint' || (typeof arg !== 'string' && typeof arg !== 'bigint')) return;
    const value = Number(arg);
    if (!Number.isSafeInteger(value)) return;
    if (args === query.args) args = [...args];
    args[i] = value;
  });
  return args === query.args ? query : { ...query, args };
}

/** Makes `queryable` (a connection or one of its transactions) bind its integer arguments as numbers. */
function bindIntegersAsNumbers<Q extends SqlQueryable>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  queryable.queryRaw = (query) => queryRaw(integersAsNumbers(query));
  queryable.executeRaw = (query) => executeRaw(integersAsNumbers(query));
  return queryable;
}

/** SQLITE_MAX_VARIABLE_NUMBER of the SQLite better-sqlite3 bundles (the default since 3.32). */
const SQLITE_MAX_VARIABLES = 32_766;

/** A PrismaBetterSqlite3 factory whose connections are prepared as described above (and noted in `handle`). */
export function sqliteAdapterFactory(url: string, busyTimeoutMs: number, handle?: SqliteConnectionHandle): PrismaBetterSqlite3 {
  const factory = new PrismaBetterSqlite3({ url, timeout: busyTimeoutMs });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.getConnectionInfo = () => ({ supportsRelationJoins: false, maxBindValues: SQLITE_MAX_VARIABLES });
    bindIntegersAsNumbers(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => bindIntegersAsNumbers(await startTransaction(isolationLevel));
    const db = (adapter as unknown as { client: SqliteDatabase }).client;
    prepare(db);
    if (handle) handle.db = db;
    return adapter;
  };
  return factory;
}
