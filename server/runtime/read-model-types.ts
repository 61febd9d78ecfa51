/**
 * The row types the read model answers with (read-model.ts), for the API: it names the store's
 * rows only through these, never through the store's own modules.
 */
import type { InboxHold, MessageRow } from '../store/contract/types.ts';

export type { InboxHold };
export { NEVER_DUE } from '../store/contract/inbox.ts';

/** When an inbox task is due and how urgent it is (the act's `params.due`, `follow_up`, `priority`). */
export interface InboxSchedule {
  due_time: number;
  follow_up: number;
  priority: number;
  /** What escalations changed in the task's params since it opened (null: none). */
  escalated: EscalatedParams | null;
}

import type { EscalatedParams } from '../../vocab/escalations.ts';

export type { EventRow, MessageRow, ProcRow, Query, QueryExpr, QueryFilter } from '../store/contract/types.ts';

/** What an open inbox task asks: its `created` act message. */
export type InboxTask = Pick<MessageRow, 'pid' | 'tid' | 'nid' | 'key' | 'name' | 'uses' | 'mid' | 'model' | 'inputs' | 'start_time'>;

/** A page of a caller's inbox: how many tasks it holds, and the page's. */
export interface InboxAnswer {
  count: number;
  /** Each with who holds it, when it is due (NEVER_DUE: never), when to follow it up, its priority. */
  tasks: Array<InboxTask & InboxSchedule & { hold: InboxHold }>;
}

/** Which page of whose inbox (principals: inbox-rows.ts). */
export interface InboxRead {
  principals: readonly string[];
  mid?: string;
  /** Only tasks this user holds (claimed, given, delegated); null: only tasks no one holds. */
  holder?: string | null;
  /** Only tasks due before this time (epoch ms). */
  dueBefore?: number;
  /** Only tasks due at or after this time (epoch ms). */
  dueFrom?: number;
  /** Also the tasks this user holds, whoever they are offered to. */
  alsoHeldBy?: string;
  /** Start order (default), soonest due first, or highest priority first. */
  order?: 'start' | 'due' | 'priority';
  offset: number;
  limit: number;
  newestFirst?: boolean;
}
