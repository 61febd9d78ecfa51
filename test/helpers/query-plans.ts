/**
 * Which statements a store sends, and how the database would run them: a Prisma store on a test
 * database whose client records every statement with its parameters (Prisma's `query` log
 * events), and `accessOf(statement)`: the tables the database's planner would read end to end
 * for it and the indexes it would use — SQLite's `EXPLAIN QUERY PLAN`, PostgreSQL's `EXPLAIN (FORMAT JSON)` with
 * sequential scans priced out (`enable_seqscan = off`, so a Seq Scan left in the plan means no
 * index can serve the statement, whatever the table's size).
 *
 * State: the statements recorded so far (`statements`, in order); the planner connection is
 * opened by `open` and closed by `close`.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { PrismaStore, type PrismaLike } from '../../server/store/prisma-store.ts';
import { sqliteAdapterFactory } from '../../server/store/sqlite-connection.ts';
import type { TestDatabase } from './databases.ts';

/** A statement's plan, reduced: the tables read end to end, the indexes used. */
export interface Access {
  fullScans: string[];
  indexes: string[];
}

export interface Statement {
  sql: string;
  params: unknown[];
}

interface QueryEvent {
  query: string;
  params: string;
}

interface LoggingClient extends PrismaLike {
  $on(event: 'query', fn: (e: QueryEvent) => void): void;
}

/**
 * A logged parameter as the store's adapter binds it: booleans as numbers (better-sqlite3 refuses
 * booleans) and integers, which Prisma's query log gives as strings, as numbers
 * (sqlite-connection.ts `integersAsNumbers`). SQLite plans a statement again with some bound
 * values: a LIMIT bound as an integer, or `stuck_since > ?` against the partial index
 * `stuck_since > 0`; the plan asked about must be the one the store gets.
 */
const sqliteValue = (value: unknown): unknown => (typeof value === 'boolean' ? Number(value) : typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value);

export class RecordingStore {
  readonly statements: Statement[] = [];

  private constructor(
    readonly store: PrismaStore,
    private readonly explain: (s: Statement) => Promise<Access>,
    private readonly closePlanner: () => Promise<void>,
  ) {}

  static async open(db: TestDatabase): Promise<RecordingStore> {
    if (db.backend === 'sqlite') {
      const { PrismaClient } = await import('../../server/store/generated/sqlite/client.ts');
      const client = new PrismaClient({ adapter: sqliteAdapterFactory(db.url, 5_000), log: [{ emit: 'event', level: 'query' }] }) as unknown as LoggingClient;
      const planner = new Database(db.url.slice('file:'.length), { readonly: true });
      const explain = async (s: Statement) => sqliteAccess((planner.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params.map(sqliteValue)) as Array<{ detail: string }>).map((r) => r.detail));
      return RecordingStore.wrap(new PrismaStore('sqlite', client), client, explain, async () => void planner.close());
    }
    const [{ PrismaPg }, { PrismaClient }] = await Promise.all([import('@prisma/adapter-pg'), import('../../server/store/generated/postgresql/client.ts')]);
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }), log: [{ emit: 'event', level: 'query' }] }) as unknown as LoggingClient;
    const planner = new pg.Client({ connectionString: db.url });
    await planner.connect();
    await planner.query('SET enable_seqscan = off');
    const explain = async (s: Statement) => pgAccess((await planner.query(`EXPLAIN (FORMAT JSON) ${s.sql}`, s.params)).rows[0]['QUERY PLAN'][0].Plan);
    return RecordingStore.wrap(new PrismaStore('postgresql', client), client, explain, () => planner.end());
  }

  private static wrap(store: PrismaStore, client: LoggingClient, explain: (s: Statement) => Promise<Access>, close: () => Promise<void>): RecordingStore {
    const recording = new RecordingStore(store, explain, close);
    client.$on('query', (e) => recording.statements.push({ sql: e.query, params: JSON.parse(e.params) as unknown[] }));
    return recording;
  }

  /** How the planner would read the tables for the statement. */
  accessOf(statement: Statement): Promise<Access> {
    return this.explain(statement);
  }

  /** Closes the planner's connection and the store (when the engine did not close it already). */
  async close(): Promise<void> {
    await this.closePlanner();
    await this.store.close();
  }
}

/** SQLite plan lines: `SCAN t` reads t whole; `SCAN t USING INDEX i` and `SEARCH t USING INDEX i` use i. */
function sqliteAccess(details: string[]): Access {
  const access: Access = { fullScans: [], indexes: [] };
  for (const detail of details) {
    const m = /^(SCAN|SEARCH) (\S+)(?: USING (?:COVERING )?INDEX (\S+))?/.exec(detail);
    if (!m) continue;
    const table = m[2].replace(/^main\./, '');
    if (m[3]) access.indexes.push(m[3]);
    else if (m[1] === 'SCAN') access.fullScans.push(table);
  }
  return access;
}

interface PgPlan {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PgPlan[];
}

function pgAccess(plan: PgPlan, access: Access = { fullScans: [], indexes: [] }): Access {
  if (plan['Node Type'] === 'Seq Scan' && plan['Relation Name']) access.fullScans.push(plan['Relation Name']);
  if (plan['Index Name']) access.indexes.push(plan['Index Name']);
  for (const child of plan.Plans ?? []) pgAccess(child, access);
  return access;
}
