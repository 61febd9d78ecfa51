/**
 * Store.fenceProcesses in one statement: the owners of the given procs rows, locked on PostgreSQL
 * (`FOR UPDATE`, in id order so two fences never deadlock) until the surrounding transaction ends.
 * A takeover's claim skips locked rows, so a fenced write and a claim of the same process never
 * interleave: the write commits first (the claimant then reads it) or sees the new owner and stops.
 * SQLite has one writer at a time, so the same SELECT without the lock is enough.
 */
import type { SqlBackend } from '../sql-backend.ts';

export { lostOf } from '../contract/fence.ts';

/** PostgreSQL's fence (parameter `$1`: the pids); also the first part of a guarded batch statement (statements.ts). */
export const PG_FENCE_SQL = `SELECT "id", "owner" FROM "procs" WHERE "id" = ANY($1::text[]) ORDER BY "id" FOR UPDATE`;

export function fenceProcessesSql(backend: SqlBackend, pids: readonly string[]): { sql: string; params: unknown[] } {
  if (backend === 'postgresql') return { sql: PG_FENCE_SQL, params: [[...pids]] };
  return { sql: `SELECT "id", "owner" FROM "procs" WHERE "id" IN (${pids.map(() => '?').join(', ')})`, params: [...pids] };
}
