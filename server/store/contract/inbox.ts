/**
 * The store contract's inbox (types.ts re-exports it): the read model's rows of open interrupt
 * tasks (server/runtime/inbox-rows.ts) and the named queries over them.
 */

/** A task by its coordinates. */
export interface TaskRef {
  pid: string;
  tid: string;
}

/**
 * One open inbox task for one principal who may see it (server/runtime/inbox-rows.ts): written
 * with the batch that holds the task's `created` act message, deleted with the batch in which the
 * task leaves `interrupted` (and with the process's rows). `principal`: `''` (every task has this
 * row: callers who may act on any task), `'*'` (no assignment: any operator), `user:<name>` or
 * `role:<role>`.
 */
export interface InboxRow {
  id: string;
  pid: string;
  tid: string;
  mid: string;
  principal: string;
  start_time: number;
}

/** Which inbox tasks a read wants: rows of any of `principals` (a task counts once), of model `mid` if given. */
export interface InboxFilter {
  principals: readonly string[];
  mid?: string;
}

/** A page of inbox tasks: earliest start first (then creation order), or the reverse. */
export interface InboxPage extends InboxFilter {
  offset: number;
  limit: number;
  newestFirst?: boolean;
}

/** The inbox's named queries (part of StoreQueries). */
export interface InboxQueries {
  /**
   * One row per inbox task the filter matches (a task's row with the least id), in the page's
   * order (earliest start first, ties in creation order; `newestFirst` reverses it).
   */
  inboxPage(page: InboxPage): Promise<InboxRow[]>;
  /** How many inbox tasks the filter matches (each once). */
  inboxCount(filter: InboxFilter): Promise<number>;
  /**
   * Deletes the inbox rows of the tasks `tasks`; returns how many. In a batch of the SQL stores
   * the deletion is queued with the batch's upserts instead (written before the inbox rows the
   * batch upserts, in PostgreSQL's one-statement batch too) and the result is 0.
   */
  deleteInboxOf(tasks: readonly TaskRef[]): Promise<number>;
}
