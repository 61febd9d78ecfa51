/**
 * The inbox rows of open interrupt tasks that have none: tasks written before the inbox table
 * existed (its migration creates it empty), or by an engine without it. Their `created` act
 * messages give the rows, built by the same code as a job's batch (inbox-rows.ts); interrupted
 * acts without such a message (emission disabled) are never in the inbox and are skipped.
 * Idempotent (upserts), so instances that run it at the same time write the same rows. Stateless.
 */
import type { InboxRow, Store } from '../engine/store/types.ts';
import { inboxRowsOf } from './inbox-rows.ts';
import type { StoreWriter } from './store-writer.ts';

const CHUNK = 200;

/** Writes the missing inbox rows; returns for how many tasks. */
export async function backfillInbox(store: Store, writer: StoreWriter): Promise<number> {
  let skipped = 0;
  let filled = 0;
  for (;;) {
    const tasks = await store.queries.interruptedActsWithoutInbox(skipped, CHUNK);
    if (tasks.length === 0) return filled;
    const created = await store.queries.createdActMessagesOf(tasks.map((t) => ({ pid: t.pid, tid: t.tid })));
    // the last created message of a task names what it asks now
    const byTask = new Map(created.map((m) => [`${m.pid}:${m.tid}`, m]));
    const rows: InboxRow[] = [];
    for (const t of tasks) {
      const m = byTask.get(`${t.pid}:${t.tid}`);
      if (!m) {
        skipped++;
        continue;
      }
      rows.push(...inboxRowsOf(m));
      filled++;
    }
    if (rows.length > 0) {
      await writer.write(() =>
        store.batch(async (tx) => {
          for (const row of rows) await tx.inbox.upsert(row);
        }),
      );
    }
    if (tasks.length < CHUNK) return filled;
  }
}
