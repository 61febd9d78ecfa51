/** StoreQueries.deleteInstancesLapsedBefore (instances.ts): a small table, read whole. */
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export function deleteInstancesLapsedBefore(db: SqlRunner, before: number): Promise<number> {
  return db.execute(TABLES.instances, (p) => `DELETE FROM "instances" WHERE "lease_until" < ${p.ceilMs(before)}`);
}
