/**
 * Store.claimProcesses in one statement: sets `owner` on up to `limit` procs rows in one of the
 * given states whose owner is null, unknown, or an instance whose lease ended before `now`
 * (never a live other instance's; never rows the claimant owns already), oldest `timestamp` first,
 * and returns their ids.
 * - PostgreSQL: the candidates are locked `FOR UPDATE OF p SKIP LOCKED`, so two instances claiming
 *   at once take disjoint rows; the owner test is re-checked on the locked rows (READ COMMITTED
 *   re-reads an updated row before the UPDATE applies).
 * - SQLite: one writer at a time, so the same statement without the lock is atomic. Needs
 *   `RETURNING` (SQLite 3.35+, bundled with better-sqlite3).
 */
import type { SqlBackend } from '../prisma-store.ts';

const CLAIMABLE = `(p."owner" IS NULL OR (p."owner" <> :owner AND (i."id" IS NULL OR i."lease_until" < :now)))`;

/** The statement and its parameters (`limit` is inlined as a checked integer). */
export function claimProcessesSql(backend: SqlBackend, owner: string, now: number, states: readonly string[], limit: number): { sql: string; params: unknown[] } {
  if (!Number.isSafeInteger(limit) || limit <= 0) throw new RangeError(`claim limit must be a positive integer, got ${limit}`);
  const params: unknown[] = [];
  const slot = (value: unknown): string => {
    params.push(value);
    return backend === 'postgresql' ? `$${params.length}` : '?';
  };
  const pgOwner = backend === 'postgresql' ? slot(owner) : '';
  const ownerSlot = () => (backend === 'postgresql' ? pgOwner : slot(owner));
  const set = ownerSlot();
  const inStates = states.map((state) => slot(state)).join(', ');
  const claimable = CLAIMABLE.replace(':owner', ownerSlot()).replace(':now', slot(BigInt(now)));
  const candidates =
    `SELECT p."id" FROM "procs" p LEFT JOIN "instances" i ON i."id" = p."owner" ` +
    `WHERE p."state" IN (${inStates}) AND ${claimable} ORDER BY p."timestamp", p."id" LIMIT ${limit}`;
  const sql =
    backend === 'postgresql'
      ? `WITH c AS (${candidates} FOR UPDATE OF p SKIP LOCKED) UPDATE "procs" SET "owner" = ${set} FROM c WHERE "procs"."id" = c."id" RETURNING "procs"."id"`
      : `UPDATE "procs" SET "owner" = ${set} WHERE "id" IN (${candidates}) RETURNING "id"`;
  return { sql, params };
}
