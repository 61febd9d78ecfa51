/**
 * Test databases for the store suites, one per test file and backend:
 * - memory: `memory:`.
 * - sqlite: a copy of a migrated template file in a fresh temp directory. The template is built
 *   once per migrations content (its name holds their hash) and published by an atomic rename,
 *   so two vitest workers racing both end up with the same file.
 * - postgresql: `CREATE DATABASE acts_test_<time>_<random> TEMPLATE acts_tpl_<hash>` on the server named by
 *   ACTS_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres); the template is
 *   migrated once, under a PostgreSQL advisory lock, and kept for later runs (also the templates of
 *   other migrations: other checkouts may use them; one removed under us is built again). If the server cannot
 *   be reached the suite FAILS with a message saying how to start it (CI guarantees it runs).
 *   Test databases of runs that died more than two hours ago are dropped.
 * `useTestStore(backend)` wires this into vitest: open in beforeAll, empty every collection in
 * beforeEach, close and drop in afterAll.
 *
 * State: the template paths / names built by this worker and the stale-database sweep (memoised
 * promises).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { COLLECTION_NAMES } from '../../server/store/columns.ts';
import { applyMigrations, localMigrations } from '../../server/store/migrate.ts';
import { openStore, type OpenedStore, type StoreBackend } from '../../server/store/open-store.ts';
import { REPO_ROOT } from '../../server/store/schema-engine.mjs';

export const BACKENDS: readonly StoreBackend[] = ['memory', 'sqlite', 'postgresql'];
export const SQL_BACKENDS = ['sqlite', 'postgresql'] as const;

export const PG_ADMIN_URL = process.env.ACTS_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  backend: StoreBackend;
  url: string;
  drop(): Promise<void>;
}

/** A hash of a provider's migrations, so templates are rebuilt when they change. */
function migrationsHash(backend: 'sqlite' | 'postgresql'): string {
  const hash = crypto.createHash('sha256');
  for (const name of localMigrations(backend)) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(REPO_ROOT, 'prisma', backend, 'migrations', name, 'migration.sql')));
  }
  return hash.digest('hex').slice(0, 12);
}

const randomName = (): string => crypto.randomBytes(6).toString('hex');

// ---- SQLite ----

let sqliteTemplate: Promise<string> | undefined;

async function buildSqliteTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `acts-test-template-${migrationsHash('sqlite')}.db`);
  if (fs.existsSync(file)) return file;
  const building = `${file}.${process.pid}.${randomName()}`;
  await applyMigrations(`file:${building}`, 'sqlite');
  fs.renameSync(building, file);
  return file;
}

async function sqliteDatabase(empty: boolean): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acts-test-'));
  const file = path.join(dir, 'acts.db');
  if (!empty) fs.copyFileSync(await (sqliteTemplate ??= buildSqliteTemplate()), file);
  return { backend: 'sqlite', url: `file:${file}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// ---- PostgreSQL ----

const START_HINT = 'start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL} (${(err as Error).message}); ${START_HINT}`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const databaseExists = async (client: pg.Client, name: string): Promise<boolean> =>
  (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

let pgTemplate: Promise<string> | undefined;

async function buildPgTemplate(): Promise<string> {
  const name = `acts_tpl_${migrationsHash('postgresql')}`;
  return admin(async (client) => {
    await client.query(`SELECT pg_advisory_lock(hashtext('acts_test_template'))`);
    try {
      if (await databaseExists(client, name)) return name;
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${building}`);
      await applyMigrations(databaseUrl(building), 'postgresql');
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      // Templates of other migrations are kept: checkouts with other migrations (branches,
      // worktrees) share this server, and dropping theirs made their running suites fail.
      return name;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext('acts_test_template'))`);
    }
  });
}

async function createDatabase(client: pg.Client, name: string, template: string | undefined): Promise<void> {
  const sql = template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(sql);
      return;
    } catch (err) {
      // "source database … is being accessed by other users": another worker is copying it right now.
      if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/** Test databases left by runs that died more than two hours ago (names hold their creation time). */
async function dropStaleDatabases(client: pg.Client): Promise<void> {
  const rows = (await client.query(`SELECT datname FROM pg_database WHERE datname ~ '^acts_test_[0-9]+_'`)).rows as Array<{ datname: string }>;
  const cutoff = Math.floor(Date.now() / 1000) - 2 * 3600;
  for (const { datname } of rows) {
    if (Number(datname.split('_')[2]) < cutoff) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
  }
}

let staleDropped: Promise<void> | undefined;

async function pgDatabase(empty: boolean): Promise<TestDatabase> {
  const template = empty ? undefined : await (pgTemplate ??= buildPgTemplate());
  const name = `acts_test_${Math.floor(Date.now() / 1000)}_${randomName()}`;
  await admin(async (client) => {
    await (staleDropped ??= dropStaleDatabases(client));
    try {
      await createDatabase(client, name, template);
    } catch (err) {
      // a checkout whose helper still drops other templates removed ours: build it again, once
      if (!template || !/template database .* does not exist/.test((err as Error).message)) throw err;
      pgTemplate = undefined;
      await createDatabase(client, name, await (pgTemplate ??= buildPgTemplate()));
    }
  });
  return {
    backend: 'postgresql',
    url: databaseUrl(name),
    drop: () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

// ---- API ----

/** A fresh database for one backend: migrated (a template copy) unless `empty`. */
export async function createTestDatabase(backend: StoreBackend, options: { empty?: boolean } = {}): Promise<TestDatabase> {
  switch (backend) {
    case 'memory':
      return { backend, url: 'memory:', drop: async () => undefined };
    case 'sqlite':
      return sqliteDatabase(options.empty ?? false);
    case 'postgresql':
      return pgDatabase(options.empty ?? false);
  }
}

/** Deletes every row of every collection. */
export async function clearStore(store: OpenedStore): Promise<void> {
  for (const name of COLLECTION_NAMES) await store[name].deleteWhere({ type: 'and', exprs: [] });
}

/**
 * Registers vitest hooks giving the calling describe block a store of `backend`, emptied before
 * each test. Read it through the returned getter inside tests.
 */
export function useTestStore(backend: StoreBackend): (() => OpenedStore) & { url(): string } {
  let db: TestDatabase | undefined;
  let store: OpenedStore | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
    store = await openStore(db.url);
  });
  beforeEach(async () => {
    if (store) await clearStore(store);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });
  const opened = () => {
    if (!store) throw new Error(`the ${backend} test store did not open (see the beforeAll error)`);
    return store;
  };
  /** The database's URL, for a connection of the test's own. */
  const url = () => {
    if (!db) throw new Error(`the ${backend} test database was not created (see the beforeAll error)`);
    return db.url;
  };
  return Object.assign(opened, { url });
}
