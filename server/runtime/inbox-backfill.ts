/**
 * The inbox rows of open interrupt tasks that have none: tasks written before the inbox table
 * existed (its migration creates it empty), or by an engine without it. Their `created` act
 * messages give the rows, built by the same code as a job's batch (inbox-rows.ts); interrupted
 * acts without such a message (emission disabled) are never in the inbox and are skipped.
 * Idempotent (upserts), so instances that run it at the same time write the same rows. Stateless.
 * (Left: on a shared PostgreSQL another instance may end such a task between a chunk's read and
 * write; its rows then stay until the process's rows are swept.)
 */
import type { InboxRow, Store } from '../store/contract/types.ts';
import { createdMessagesOf, inboxRowsOf } from './inbox-rows.ts';
import type { StoreWriter } from './store-writer.ts';

const CHUNK = 200;

/**
 * Writes the missing inbox rows; returns for how many tasks. Each chunk is read and written as one
 * op of the engine's store writer, so no batch of this engine (one that ends such a task) lands
 * between the read and the write.
 */
export async function backfillInbox(store: Store, writer: StoreWriter, isExternal: (uses: string) => boolean = () => false): Promise<number> {
  let skipped = 0;
  let filled = 0;
  let more = true;
  while (more) {
    await writer.write(async () => {
      const tasks = await store.queries.interruptedActsWithoutInbox(skipped, CHUNK);
      more = tasks.length === CHUNK;
      const byTask = await createdMessagesOf(store.queries, tasks);
      const rows: InboxRow[] = [];
      for (const t of tasks) {
        const m = byTask.get(`${t.pid}:${t.tid}`);
        if (!m || isExternal(m.uses)) {
          skipped++;
          continue;
        }
        rows.push(...inboxRowsOf(m));
        filled++;
      }
      if (rows.length === 0) return;
      await store.batch(async (tx) => {
        for (const row of rows) await tx.inbox.upsert(row);
      });
    });
  }
  return filled;
}
