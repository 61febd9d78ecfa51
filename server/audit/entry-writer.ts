/**
 * Group commit for audit entries: every API call that changes something records its entry before
 * it answers, so under load each call paid a statement and a commit of its own. Entries recorded
 * while a write is under way go together in the next one (ServerQueries.insertAuditEntries: one
 * multi-row INSERT; or queued with the engine's store transactions: engine-writes.ts); each caller
 * still hears only once its own entry is written, or why not.
 *
 * State: idle → writing (one group) → idle; the entries waiting for the next group.
 */
import type { AuditRow } from '../store/server-rows.ts';

/** Writes one group of entries (ServerQueries.insertAuditEntries, or with the engine's writes: engine-writes.ts). */
export type WriteEntries = (rows: readonly AuditRow[]) => Promise<void>;

/** Most entries one write carries (one statement: 9 parameters an entry). */
const MAX_GROUP = 1000;

interface Waiting {
  row: AuditRow;
  done: (err?: unknown) => void;
}

/** A waiting entry's `done` (returned, so the build does not name one per entry: a `defineProperty` each under tsx). */
function doneWith(resolve: () => void, reject: (err: unknown) => void): (err?: unknown) => void {
  return (err) => (err === undefined ? resolve() : reject(err));
}

export class AuditEntryWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly writeEntries: WriteEntries) {}

  /** Resolves once `row` is in the store; rejects with the write's error. */
  write(row: AuditRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, done: doneWith(resolve, reject) });
      if (!this.writing) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, MAX_GROUP);
      let failure: unknown;
      try {
        await this.writeEntries(group.map((entry) => entry.row));
      } catch (err) {
        failure = err ?? new Error('the audit entries could not be written');
      }
      for (const entry of group) entry.done(failure);
    }
    this.writing = false;
  }
}
