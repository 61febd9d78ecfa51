/**
 * The row types the read model answers with (read-model.ts), for the API: it names the store's
 * rows only through these, never through the store's own modules.
 */
import type { InboxHold, MessageRow } from '../store/contract/types.ts';

export type { InboxHold };

export type { EventRow, MessageRow, ProcRow, Query, QueryExpr, QueryFilter } from '../store/contract/types.ts';

/** What an open inbox task asks: its `created` act message. */
export type InboxTask = Pick<MessageRow, 'pid' | 'tid' | 'nid' | 'key' | 'name' | 'uses' | 'mid' | 'model' | 'inputs' | 'start_time'>;

/** A page of a caller's inbox: how many tasks it holds, and the page's. */
export interface InboxAnswer {
  count: number;
  /** Each with who holds it. */
  tasks: Array<InboxTask & { hold: InboxHold }>;
}

/** Which page of whose inbox (principals: inbox-rows.ts). */
export interface InboxRead {
  principals: readonly string[];
  mid?: string;
  /** Only tasks this user holds (claimed, given, delegated); null: only tasks no one holds. */
  holder?: string | null;
  offset: number;
  limit: number;
  newestFirst?: boolean;
}
