/**
 * ServerQueries.leaseNotification: compare-and-set of a pending notification's lease in one UPDATE,
 * so of two instances that read the same `lease_until` only one moves it (and sends the e-mail).
 */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export async function leaseNotification(db: SqlRunner, id: string, expected: number, until: number): Promise<boolean> {
  const changed = await db.execute(
    TABLES.notifications,
    (p) => `UPDATE "notifications" SET "lease_until" = ${p.floorMs(until)} WHERE "id" = ${p.slot(id)} AND "state" = 'pending' AND "lease_until" = ${p.floorMs(expected)}`,
  );
  return changed === 1;
}
