/**
 * Scale-out: on PostgreSQL, socket.io rooms span every server instance through
 * @socket.io/postgres-adapter (LISTEN/NOTIFY over a small `pg` pool). Live payloads are capped
 * (payloads.ts) below NOTIFY's 8000-byte limit, so the adapter's attachment table is not needed
 * for them. The pool has exactly two connections: the adapter's LISTEN client holds one, and every
 * publish queues FIFO on the other — so NOTIFYs leave in emission order and a client on another
 * instance sees a process's events in order (a larger pool reorders concurrent publishes).
 * State: open (pool) → closed.
 */
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Logger } from 'pino';

export interface PgAdapter {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

export function postgresAdapter(url: string, log: Logger): PgAdapter {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', (err) => log.error({ err: err.message }, 'socket.io postgres adapter pool error'));
  const adapter = createAdapter(pool, {
    channelPrefix: 'acts_live',
    errorHandler: (err) => log.debug({ err: err.message }, 'socket.io postgres adapter'),
  });
  return { adapter, close: () => pool.end() };
}
