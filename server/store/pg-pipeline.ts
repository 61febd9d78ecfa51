/**
 * The PostgreSQL store's pipelined write connection (issue 12): the store writer's write-only
 * batches that go as ONE statement in autocommit (pg-write-batch.ts, `writeAtOnce`) are sent on
 * this single connection without waiting for the answer to the one before. PostgreSQL runs the
 * statements of a connection one after another, in the order they were sent, so each commits
 * after every batch handed over before it (Store.pipelinedWrites) — and the next batch is already
 * waiting in the server when the one before committed, instead of a round trip later.
 * `pg` sends a connection's next query only once the last one answered; postgres.js pipelines
 * (every statement its own Parse/Bind/Execute/Sync, so a statement that fails fails alone, as a
 * batch of SQLite's write thread does). Statements are prepared once per text on the connection.
 *
 * JSON parameters are given as JSON text (upsert-buffer.ts `recordsJson`) and sent as they are.
 *
 * State: the statements sent and, of them, answered (answers come in the order they were sent);
 * `drained()` waits until those sent before it answered → closed (`close()`: the connection
 * ended once every statement sent answered). The connection opens at the
 * first statement and opens again after it broke (the statements under way then fail).
 */
import { parse as parseConnectionString } from 'pg-connection-string';
import postgres from 'postgres';
import type { DbRecord } from './mapping.ts';

/** Statements the pipelined connections of this process sent (bench:peers counts them with `pg`'s). */
let statementsSent = 0;
export const pipelineStatements = (): number => statementsSent;

/** JSON parameters are JSON text already (postgres.js would encode a string again, as a JSON string). */
const JSON_AS_TEXT = {
  to: 114,
  from: [114, 3802],
  serialize: (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value)),
  parse: (text: string): string => text,
};

export class PgPipeline {
  private readonly sql: postgres.Sql;
  /** Statements sent, and of them answered (in the order they were sent: one connection). */
  private sent = 0;
  private answered = 0;
  private waiters: Array<{ upTo: number; resolve: () => void }> = [];

  constructor(url: string) {
    // the URL read as `pg` reads it for the store's other connections: postgres.js would send
    // every query parameter it does not know (Prisma's `schema=`, say) to the server as a setting
    const config = parseConnectionString(url);
    this.sql = postgres({
      host: config.host ?? undefined,
      port: config.port ? Number(config.port) : undefined,
      database: config.database ?? undefined,
      username: config.user,
      password: config.password,
      ssl: config.ssl as postgres.Options<never>['ssl'],
      max: 1,
      // closed after 10 s without a statement, as `pg`'s pool does (an idle process may end); opened again at the next
      idle_timeout: 10,
      onnotice: () => undefined,
      types: { jsonAsText: JSON_AS_TEXT } as unknown as Record<string, postgres.PostgresType>,
      connection: { application_name: 'acts-writer', ...(config.options ? { options: config.options } : {}) },
    });
  }

  /**
   * Sends one statement (prepared once per text) now — statements go in the order of the calls —
   * and resolves with its rows once it committed.
   */
  async run(text: string, params: readonly unknown[]): Promise<DbRecord[]> {
    this.sent++;
    statementsSent++;
    const query = this.sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
    query.execute();
    try {
      return (await query) as unknown as DbRecord[];
    } finally {
      this.answered++;
      this.waiters = this.waiters.filter((waiter) => (waiter.upTo <= this.answered ? (waiter.resolve(), false) : true));
    }
  }

  /** Resolves once every statement sent before this call answered (later ones need not have). */
  drained(): Promise<void> {
    const upTo = this.sent;
    if (this.answered >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  /** Ends the connection once the statements sent answered. */
  async close(): Promise<void> {
    await this.drained();
    await this.sql.end({ timeout: 5 });
  }
}
