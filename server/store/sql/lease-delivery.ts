/**
 * StoreQueries.leaseDelivery (remote workers, runtime/workers/): one conditional UPDATE of a
 * delivery still `created` at the attempt the caller read, so of concurrent leases or answers of
 * the same delivery on any number of instances exactly one changes it (the others see 0 rows).
 */
import { TABLES } from '../columns.ts';
import type { DeliveryLease } from '../contract/types.ts';
import type { SqlRunner } from './runner.ts';

export async function leaseDelivery(db: SqlRunner, lease: DeliveryLease): Promise<boolean> {
  const changed = await db.execute(
    TABLES.deliveries,
    (p) =>
      `UPDATE "deliveries" SET "status" = ${p.slot(lease.status)}, "retry_times" = ${p.slot(lease.retry_times)}, "update_time" = ${p.floorMs(lease.update_time)} ` +
      `WHERE "id" = ${p.slot(lease.id)} AND "status" = 'created' AND "retry_times" = ${p.slot(lease.was_retry_times)}`,
  );
  return changed === 1;
}
