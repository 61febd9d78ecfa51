/**
 * StoreQueries.setInboxHold: one UPDATE of the task's rows on the (pid, tid) index, compared and
 * set in the statement (another holder, or rows gone with the answer, change nothing).
 */
import type { InboxHold, TaskRef } from '../contract/types.ts';
import { TABLES } from '../columns.ts';
import type { SqlRunner } from './runner.ts';

export async function setInboxHold(db: SqlRunner, task: TaskRef, expected: string | null, hold: InboxHold): Promise<boolean> {
  // the slots are taken in the text's order (SQLite's `?` are positional)
  const changed = await db.execute(TABLES.inbox, (p) => {
    const set =
      `"holder" = ${p.slot(hold.holder)}, "held_since" = ${hold.held_since === null ? 'NULL' : p.floorMs(hold.held_since)}, ` +
      `"delegator" = ${p.slot(hold.delegator)}, "proposal" = ${hold.proposal === null ? 'NULL' : p.slot(JSON.stringify(hold.proposal))}`;
    const where = `"pid" = ${p.slot(task.pid)} AND "tid" = ${p.slot(task.tid)} AND ${expected === null ? `"holder" IS NULL` : `"holder" = ${p.slot(expected)}`}`;
    return `UPDATE "inbox" SET ${set} WHERE ${where}`;
  });
  return changed > 0;
}
