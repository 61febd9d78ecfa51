/**
 * Store.claimProcesses in one statement: sets `owner` on up to `limit` procs rows in one of the
 * given states (and, with `among`, those ids) whose owner is null, unknown, or an instance whose lease ended before `now`
 * (never a live other instance's; never rows the claimant owns already), oldest `timestamp` first
 * (ties in insertion order, as ownedProcessesIn), and returns their ids.
 * - PostgreSQL: the candidates are locked `FOR UPDATE OF p SKIP LOCKED`, so two instances claiming
 *   at once take disjoint rows; the owner test is re-checked on the locked rows (READ COMMITTED
 *   re-reads an updated row before the UPDATE applies).
 * - SQLite: one writer at a time, so the same statement without the lock is atomic. Needs
 *   `RETURNING` (SQLite 3.35+, bundled with better-sqlite3).
 */
import type { SqlBackend } from '../sql-backend.ts';
import { limit as limitOf, Params } from './params.ts';

const CLAIMABLE = `(p."owner" IS NULL OR (p."owner" <> :owner AND (i."id" IS NULL OR i."lease_until" < :now)))`;

/** The statement and its parameters (`limit` is inlined as a checked integer). */
export function claimProcessesSql(backend: SqlBackend, owner: string, now: number, states: readonly string[], limit: number, among?: readonly string[]): { sql: string; params: unknown[] } {
  const p = new Params(backend);
  // PostgreSQL numbers its parameters, so the owner is sent once and named three times.
  const pgOwner = backend === 'postgresql' ? p.slot(owner) : '';
  const ownerSlot = () => pgOwner || p.slot(owner);
  const set = ownerSlot();
  const inStates = p.list(states); // before the owner test: SQLite's slots follow the text
  const amongIds = among ? ` AND p."id" IN ${p.list(among)}` : '';
  const claimable = CLAIMABLE.replace(':owner', ownerSlot()).replace(':now', p.slot(BigInt(now)));
  const candidates =
    `SELECT p."id" FROM "procs" p LEFT JOIN "instances" i ON i."id" = p."owner" ` +
    `WHERE p."state" IN ${inStates}${amongIds} AND ${claimable} ORDER BY p."timestamp", p."seq", p."id" ${limitOf(limit)}`;
  const sql =
    backend === 'postgresql'
      ? `WITH c AS (${candidates} FOR UPDATE OF p SKIP LOCKED) UPDATE "procs" SET "owner" = ${set} FROM c WHERE "procs"."id" = c."id" RETURNING "procs"."id"`
      : `UPDATE "procs" SET "owner" = ${set} WHERE "id" IN (${candidates}) RETURNING "id"`;
  return { sql, params: p.values };
}
