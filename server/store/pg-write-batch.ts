/**
 * A write-only batch on PostgreSQL (issue 12, item 2; Store.writeOnlyBatch): BEGIN, the batch's
 * statements, COMMIT on a connection of the store's own `pg` pool, instead of a Prisma
 * interactive transaction (its machinery costs more than the writes). The batch's upserts are the
 * same multi-row statements (upsert-buffer.ts); its named queries and notifies run on the same
 * connection. Reads through Prisma's query API could not see the open transaction, so the batch's
 * store refuses them (WRITE_ONLY).
 */
import type pg from 'pg';
import { ActError } from '../engine/errors.ts';

/** Runs `work` in one transaction on a connection of `pool`: committed when it resolves, rolled back when it rejects. */
export async function inPgTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } catch (err) {
    // a connection that cannot even roll back is not handed out again
    await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
    throw err;
  } finally {
    client.release(broken);
  }
}

const refuse = (what: string): never => {
  throw new ActError('internal', `a write-only batch cannot ${what}: use Store.batch for work that reads`);
};

/**
 * The Prisma side of a write-only batch's store (a client's shape, typed by the store that uses
 * it): every model delegate (reads, deleteWhere) refuses.
 */
export const WRITE_ONLY: object = new Proxy({}, {
  get: (_target, prop) => (typeof prop === 'string' ? new Proxy({}, { get: (_d, method) => () => refuse(`${String(method)} ${prop}`) }) : undefined),
});
