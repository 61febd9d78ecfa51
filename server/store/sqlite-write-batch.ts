/**
 * A write-only batch on SQLite (Store.writeOnlyBatch) written by the store's write thread
 * (sqlite-write-thread.ts): the batch's `fn` runs on the engine's thread against a store whose
 * upserts and inbox deletions are queued (the UpsertBuffer), those become statements, and the
 * thread runs them atomically (alone, or in one commit with the batches waiting beside them)
 * while the engine's thread goes on. An operation that must
 * run inside the transaction — a read, a create or update that reports a missing or existing
 * row, a named query other than the inbox deletion — cannot be queued: the batch then says so
 * (`NeedsTransaction`) before anything was written, and the store runs `fn` again, from the
 * start, as a batch on its own connection.
 *
 * State: collecting (fn runs, statements gathered) → handed over (the thread writes them) →
 * written | failed (rolled back there); or collecting → needs a transaction (nothing written).
 */
import type { SqlStatement } from './sqlite-write-thread.ts';
import { refusingClient } from './refusing-client.ts';
import type { ExecuteRaw } from './upsert-buffer.ts';

/** Thrown into a write-only batch's `fn` by an operation the write thread cannot take. */
export class NeedsTransaction extends Error {
  constructor(what: string) {
    super(`a SQLite write-only batch cannot ${what} on its write thread`);
  }
}

const needsTransaction = (what: string): never => {
  throw new NeedsTransaction(what);
};

/** The Prisma side of the batch's store: reads and deleteWhere need the transaction. */
export const NEEDS_TRANSACTION: object = refusingClient(needsTransaction);

/** The statements of one batch, gathered for the write thread. */
export class SqliteWriteBatch {
  readonly statements: SqlStatement[] = [];

  /** The upsert buffer's statements: gathered (their affected counts are not known here). */
  readonly gather: ExecuteRaw = async (sql, params) => {
    this.statements.push([sql, params]);
    return 0;
  };

  /** Any other statement of the batch's store: it needs the transaction. */
  readonly refuse: ExecuteRaw = async (sql) => needsTransaction(`run '${sql.slice(0, 40)}…'`);

  readonly refuseQuery = async (sql: string): Promise<never> => needsTransaction(`read '${sql.slice(0, 40)}…'`);
}
