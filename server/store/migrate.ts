/**
 * Applies the pending migrations of prisma/<provider>/migrations when a store opens, through the
 * wasm schema engine (server/store/schema-engine.mjs; its module is instantiated once per process).
 * Fast path: when `_prisma_migrations` already records every local migration as finished, the
 * engine is not started at all (`migrationsPending`). The engine takes PostgreSQL's advisory lock itself, so several
 * processes opening one database at once apply each migration once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ActError } from '../engine/errors.ts';
import { migrateDeploy, REPO_ROOT } from './schema-engine.mjs';
import type { SqlBackend } from './sql-backend.ts';

export interface RawQueryable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** The migration folder names of a provider, in order. */
export function localMigrations(backend: SqlBackend, root = REPO_ROOT): string[] {
  const dir = path.join(root, 'prisma', backend, 'migrations');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

const MIGRATIONS_TABLE_EXISTS: Readonly<Record<SqlBackend, string>> = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'",
  postgresql: "SELECT to_regclass('_prisma_migrations')::text AS name",
};

/** The finished migrations recorded in the database (none when it has no migrations table). */
async function appliedMigrations(backend: SqlBackend, client: RawQueryable): Promise<Set<string>> {
  const exists = await client.$queryRawUnsafe<Array<{ name: string | null }>>(MIGRATIONS_TABLE_EXISTS[backend]);
  if (!exists[0]?.name) return new Set();
  const rows = await client.$queryRawUnsafe<Array<{ migration_name: string }>>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  return new Set(rows.map((row) => row.migration_name));
}

/** Whether the database lacks one of the local migrations. */
export async function migrationsPending(backend: SqlBackend, client: RawQueryable): Promise<boolean> {
  const applied = await appliedMigrations(backend, client);
  return localMigrations(backend).some((name) => !applied.has(name));
}

/**
 * Applies the pending migrations with the schema engine; returns their names. On SQLite the engine
 * needs the file to itself (it sets locking_mode=EXCLUSIVE): no other connection may be open.
 */
export async function applyMigrations(url: string, backend: SqlBackend): Promise<string[]> {
  try {
    return await migrateDeploy({ url, provider: backend });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const busy = backend === 'sqlite' && /SocketTimeout|SQLITE_BUSY|database is locked/.test(message);
    throw new ActError(
      'internal',
      busy
        ? `applying the sqlite migrations failed: the database file is in use by another process (SQLite stores are single-instance)`
        : `applying the ${backend} migrations failed: ${message}`,
      err,
    );
  }
}
