/**
 * Opens the store a URL names, with pending migrations applied:
 *   memory:                        the in-memory store (nothing persists)
 *   file:<path>                    SQLite through better-sqlite3 (WAL, busy timeout, the directory is
 *                                  created; see sqlite-connection.ts), with the engine lock file
 *                                  `<path>-engine.lock` (engine-lock.ts)
 *   postgres[ql]://user@host/db    PostgreSQL through pg
 * The default URL is the caller's business: `defaultStoreUrl()` reads DATABASE_URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActError } from '../engine/errors.ts';
import { MemoryStore } from './contract/memory.ts';
import type { Store } from './contract/types.ts';
import { engineLockFile } from './engine-lock.ts';
import { applyMigrations, migrationsPending, type RawQueryable } from './migrate.ts';
import { PrismaStore, type PrismaLike, type PrismaStoreOptions } from './prisma-store.ts';
import type { SqlBackend } from './sql-backend.ts';
import { memoryServerQueries } from './memory-server-queries.ts';
import type { ServerStore } from './server-rows.ts';
import { memoryServerCollection, withServerCollections } from './server-store.ts';
import { bindQueries } from './sql/runner.ts';
import * as serverQueries from './sql/server-queries.ts';

export type StoreBackend = 'memory' | SqlBackend;

/**
 * The engine's `Store` plus the server's collections (users, sessions, apiTokens, audit) and
 * their named queries on the same database; hand it to the engine as a `Store` and to
 * server/auth, server/audit as a `ServerStore`.
 */
export type OpenedStore = Store & ServerStore & { readonly backend: StoreBackend };

export const DEFAULT_STORE_URL = 'file:./data/acts.db';

export interface OpenStoreOptions extends PrismaStoreOptions {
  /** SQLite: how long a write waits for a lock held by another connection, ms. Default 5 s. */
  sqliteBusyTimeoutMs?: number;
  /** PostgreSQL: connections in the pool. Default 10. */
  pgPoolSize?: number;
  /**
   * SQLite: the store writer's batches are written by a thread of the store's own (default true;
   * sqlite-write-thread.ts). False keeps them on the store's connection, where when they commit
   * does not depend on another thread's timing — the seeded simulation needs that to replay a
   * seed to the same end.
   */
  writeThread?: boolean;
}

/** `DATABASE_URL`, or `file:./data/acts.db`. */
export function defaultStoreUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL?.trim() || DEFAULT_STORE_URL;
}

/** The URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  if (!url.includes('@')) return url; // no credentials (file:, memory:); URL parsing would rewrite a relative file: path
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}

function badUrl(url: string, why: string): never {
  throw new ActError('config.invalid', `invalid store url '${redactUrl(url)}': ${why}`);
}

export type ParsedStoreUrl =
  | { backend: 'memory' }
  | { backend: 'sqlite'; file: string }
  | { backend: 'postgresql'; url: string };

/** Checks a store URL and says which backend it names. */
export function parseStoreUrl(url: string): ParsedStoreUrl {
  if (typeof url !== 'string' || url.trim() === '') badUrl(String(url), 'empty (expected memory:, file:<path> or postgresql://…)');
  url = url.trim();
  if (url === 'memory:' || url === 'memory://') return { backend: 'memory' };
  if (url.startsWith('file:')) {
    const rest = url.slice('file:'.length);
    if (rest.startsWith(':memory:') || rest.includes('mode=memory')) badUrl(url, 'an in-memory SQLite database cannot be shared with the migrator: use memory:');
    let file: string;
    try {
      file = rest.startsWith('//') ? fileURLToPath(url) : rest;
    } catch (err) {
      badUrl(url, (err as Error).message);
    }
    if (file.includes('?')) badUrl(url, 'query parameters are not supported on file: urls');
    if (file === '' || file.endsWith('/')) badUrl(url, 'no database file path after file:');
    return { backend: 'sqlite', file: path.resolve(file) };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      badUrl(url, 'not a valid URL');
    }
    if (!parsed.hostname) badUrl(url, 'no host');
    if (parsed.pathname.length <= 1) badUrl(url, 'no database name (postgresql://user@host:5432/<database>)');
    return { backend: 'postgresql', url };
  }
  badUrl(url, 'unknown scheme (expected memory:, file:<path>, postgres:// or postgresql://)');
}

/** The SQL store with the server's collections and named queries on its own client. */
const withServerTables = (store: PrismaStore): OpenedStore =>
  withServerCollections(store, (table) => store.collection(table), () => bindQueries(store.runner, serverQueries));

async function openSqlite(file: string, options: OpenStoreOptions): Promise<OpenedStore> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const url = `file:${file}`;
  const [{ sqliteAdapterFactory }, { SqliteCheckpointer }, { SqliteWriteThread }, { PrismaClient }] = await Promise.all([
    import('./sqlite-connection.ts'),
    import('./sqlite-checkpointer.ts'),
    import('./sqlite-write-thread.ts'),
    import('./generated/sqlite/client.ts'),
  ]);
  const connection = { db: undefined };
  const busyTimeoutMs = options.sqliteBusyTimeoutMs ?? 5_000;
  const client = new PrismaClient({ adapter: sqliteAdapterFactory(url, busyTimeoutMs, connection) });
  let checkpointer: InstanceType<typeof SqliteCheckpointer> | undefined;
  let writeThread: InstanceType<typeof SqliteWriteThread> | undefined;
  try {
    let applied: string[] = [];
    if (await migrationsPending('sqlite', client as unknown as RawQueryable)) {
      // The schema engine wants the file to itself: close our connection (the client reopens it).
      await client.$disconnect();
      applied = await applyMigrations(url, 'sqlite');
    }
    checkpointer = new SqliteCheckpointer(file);
    if (options.writeThread !== false) writeThread = new SqliteWriteThread(file, busyTimeoutMs);
    return withServerTables(
      new PrismaStore('sqlite', client as unknown as PrismaLike, { engineLockFile: engineLockFile(file), sqliteConnection: connection, checkpointer, sqliteWriteThread: writeThread, ...options }, applied),
    );
  } catch (err) {
    await writeThread?.stop();
    await checkpointer?.stop();
    await client.$disconnect().catch(() => undefined);
    throw opening(url, err);
  }
}

async function openPostgres(url: string, options: OpenStoreOptions): Promise<OpenedStore> {
  const [{ PrismaPg }, { PrismaClient }, { default: pg }, { PgPipeline }] = await Promise.all([
    import('@prisma/adapter-pg'),
    import('./generated/postgresql/client.ts'),
    import('pg'),
    import('./pg-pipeline.ts'),
  ]);
  const adapter = new PrismaPg({ connectionString: url, max: options.pgPoolSize ?? 10 });
  const client = new PrismaClient({ adapter });
  try {
    const pending = await migrationsPending('postgresql', client as unknown as RawQueryable);
    const applied = pending ? await applyMigrations(url, 'postgresql') : [];
    // the store writer's write-only batches (pg-write-batch.ts) and the store's statements outside
    // batches (reads by id, named queries, single writes): connections of their own
    const pgWritePool = new pg.Pool({ connectionString: url, max: 4 });
    // an idle connection that breaks (a server restart) is replaced; the next batch reports the trouble
    pgWritePool.on('error', () => undefined);
    // the store writer's one-statement batches: sent without waiting for the one before (pg-pipeline.ts)
    const pgPipeline = new PgPipeline(url);
    return withServerTables(new PrismaStore('postgresql', client as unknown as PrismaLike, { listenUrl: url, pgWrites: { pool: pgWritePool, pipeline: pgPipeline }, ...options }, applied));
  } catch (err) {
    await client.$disconnect().catch(() => undefined);
    throw opening(url, err);
  }
}

function opening(url: string, err: unknown): ActError {
  if (ActError.is(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ActError('internal', `cannot open the store at '${redactUrl(url)}': ${message}`, err);
}

/** Opens (and migrates) the store the URL names. */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const parsed = parseStoreUrl(url);
  switch (parsed.backend) {
    case 'memory':
      return withServerCollections(new MemoryStore(), memoryServerCollection, memoryServerQueries);
    case 'sqlite':
      return openSqlite(parsed.file, options);
    case 'postgresql':
      return openPostgres(parsed.url, options);
  }
}
