/**
 * Who holds the open inbox tasks (the claims, delegations and reassignments of server/api/claims.ts):
 * read from a task's every-task inbox row, and compared-and-set on all of its rows in one
 * statement, once the queued store writes landed (a task that just opened has its rows). A task
 * that leaves the inbox takes its hold with its rows. Stateless.
 */
import type { InboxHold, InboxRow } from '../store/contract/types.ts';
import { EVERY_TASK } from '../../vocab/inbox-principals.ts';
import type { Runtime } from './runtime-types.ts';

export type { InboxHold };

/** The hold fields of an inbox row (rows written before holds hold none). */
export function holdOf(row: InboxRow): InboxHold {
  return { holder: row.holder ?? null, held_since: row.held_since ?? null, delegator: row.delegator ?? null, proposal: row.proposal ?? null };
}

export class InboxHolds {
  constructor(private readonly rt: Runtime) {}

  /** The hold of an open inbox task; undefined when the task is not in the inbox. */
  async get(pid: string, tid: string): Promise<InboxHold | undefined> {
    await this.rt.writer.flush();
    return this.peek(pid, tid);
  }

  /**
   * The hold as stored now, without waiting for queued writes: a task whose rows are still queued
   * reads as not in the inbox (no one can have claimed it yet; its assignee is in its params).
   */
  async peek(pid: string, tid: string): Promise<InboxHold | undefined> {
    const row = await this.rt.store.inbox.find(`${pid}:${tid}:${EVERY_TASK}`);
    return row ? holdOf(row) : undefined;
  }

  /** Sets the hold if `expected` holds the task now (null: no one); false when it does not, or the task left the inbox. */
  async set(pid: string, tid: string, expected: string | null, hold: InboxHold): Promise<boolean> {
    await this.rt.writer.flush();
    return this.rt.store.queries.setInboxHold({ pid, tid }, expected, hold);
  }
}
