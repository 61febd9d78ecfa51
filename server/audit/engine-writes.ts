/**
 * Audit entries written with the engine's store transactions (Engine.writeAlong): a group of
 * entries rides in the store writer's next transaction beside the jobs' writes, as rows of the
 * `audit` table, instead of an INSERT and a commit of its own. Under API load every start and
 * action is audited, so the separate writes doubled the commits on PostgreSQL (bench:http, 64
 * callers starting: 0.16 commits per start, the engine's own starts 0.08), and on SQLite each
 * group waited until the write thread was idle, then ran on the main thread. A group still
 * resolves only once it is in the store. A batch's store offers the table through
 * `Store.serverCollection`. Once the engine is closed, and while its store writer is saturated (the record of a
 * call refused for that reason would wait behind the backlog), groups are written on their own
 * (`alone`).
 */
import { systemClock, type Clock } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import type { Collection, Store } from '../store/contract/types.ts';
import type { AuditRow } from '../store/server-rows.ts';
import { createAuditLog, writtenAlone, type AuditStore } from './audit-log.ts';
import type { WriteEntries } from './entry-writer.ts';
import type { AuditLog } from './types.ts';

/** What this needs of the engine: Engine.writeAlong. */
export interface WritesAlong {
  writeAlong(part: (tx: Store) => Promise<void>): Promise<void>;
}

/** The `audit` table in a batch's store. */
function auditIn(tx: Store): Collection<AuditRow> {
  const audit = tx.serverCollection?.('audit') as Collection<AuditRow> | undefined;
  if (!audit) throw new ActError('internal', 'the store batch has no audit table');
  return audit;
}

/** Why the engine leaves a group to a write of its own: it is closed, or its store writer is saturated. */
const WRITE_ALONE = new Set(['engine.closed', 'engine.busy']);

/** Writes groups of entries with `engine`'s store transactions; with `alone` while it cannot take them. */
export function withEngineWrites(engine: WritesAlong, alone: WriteEntries): WriteEntries {
  return async (rows) => {
    try {
      await engine.writeAlong(async (tx) => {
        const audit = auditIn(tx);
        for (const row of rows) await audit.upsert(row);
      });
    } catch (err) {
      if (!(ActError.is(err) && WRITE_ALONE.has(err.code))) throw err;
      await alone(rows);
    }
  };
}

/** The server's audit log on `store`, its entries written with `engine`'s store transactions. */
export function engineAuditLog(store: AuditStore, engine: WritesAlong, clock: Clock = systemClock): AuditLog {
  return createAuditLog(store, clock, withEngineWrites(engine, writtenAlone(store)));
}
