/**
 * What a run costs on PostgreSQL and SQLite, read where the database keeps it: a fresh database
 * per run, its committed transactions and written rows from `pg_stat_database` (read once every
 * connection to it has closed: a backend reports its counts when it exits), and the statements the
 * Node process sent, counted on the drivers' prototypes (`pg` for PostgreSQL, which Prisma's
 * adapter, pg-boss and graphile-worker all use; better-sqlite3 for SQLite) and by the store's own
 * connections that count theirs (the SQLite write thread, the PostgreSQL pipelined connection).
 */
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { pipelineStatements } from '../../server/store/pg-pipeline.ts';
import { writeThreadStatements } from '../../server/store/sqlite-write-thread.ts';
import { PG_ADMIN_URL } from '../../test/helpers/databases.ts';

let statements = 0;
let counting = false;

/** Statements sent by this process since the counting began. */
export function statementCount(): number {
  // the SQLite store's write thread, and the PostgreSQL store's pipelined connection (postgres.js), count their own
  return statements + writeThreadStatements() + pipelineStatements();
}

/** Counts every statement sent through `pg` and better-sqlite3 from now on (once per process). */
export function countStatements(): void {
  if (counting) return;
  counting = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = statement[name];
    statement[name] = function (this: unknown, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    };
  }
  const db = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => unknown>;
  const exec = db.exec;
  db.exec = function (this: unknown, ...args: unknown[]) {
    statements++;
    return exec.apply(this, args);
  };
  probe.close();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Commits and row writes of database `name` so far. Call it with the run's connections closed:
 * it waits until their backends are gone (a backend reports its counts as it exits).
 */
function pgDatabaseCounts(name: string): Promise<{ commits: number; rows: number }> {
  return admin(async (c) => {
    for (let i = 0; i < 500; i++) {
      const open = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (open.rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { rows } = await c.query(
      'SELECT xact_commit::bigint AS commits, (tup_inserted + tup_updated + tup_deleted)::bigint AS rows FROM pg_stat_database WHERE datname = $1',
      [name],
    );
    return { commits: Number(rows[0].commits), rows: Number(rows[0].rows) };
  });
}

/** Polls `sql` (its first row's `n`) on a connection of its own every 10 ms until `done(n)`. */
export async function pollCount(url: string, sql: string, done: (n: number) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(sql);
      if (done(Number(rows[0].n))) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await client.end();
  }
}

export interface FreshPgDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new empty database for one run of a peer. */
export async function freshPgDatabase(label: string): Promise<FreshPgDatabase> {
  const name = `acts_peers_${label}_${crypto.randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * The costs of a run against a PostgreSQL database: `begin` (setup closed) notes the counts,
 * `end` (run closed) gives what the run added.
 */
export class PgRunCosts {
  private base = { commits: 0, rows: 0, statements: 0 };

  constructor(private readonly name: string) {}

  async begin(): Promise<void> {
    this.base = { ...(await pgDatabaseCounts(this.name)), statements: statementCount() };
  }

  async end(): Promise<{ commits: number; rows: number; statements: number }> {
    const now = await pgDatabaseCounts(this.name);
    return { commits: now.commits - this.base.commits, rows: now.rows - this.base.rows, statements: statementCount() - this.base.statements };
  }
}
