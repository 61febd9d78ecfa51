/**
 * Store.writeOnlyBatch's guard on a store's plain `batch`: the fence first, inside the batch (on
 * PostgreSQL its rows stay locked until the batch ends), then `fn` only when no process is lost.
 */
import type { Store, WriteGuard } from './types.ts';

export async function guardedBatch(store: Store, fn: (tx: Store) => Promise<void>, guard?: WriteGuard): Promise<string[]> {
  let lost: string[] = [];
  await store.batch(async (tx) => {
    lost = guard && guard.pids.length > 0 ? await tx.fenceProcesses(guard.owner, guard.pids, guard.fresh) : [];
    if (lost.length === 0) await fn(tx);
  });
  return lost;
}
