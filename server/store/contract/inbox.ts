/**
 * The store contract's inbox (types.ts re-exports it): the read model's rows of open interrupt
 * tasks (server/runtime/inbox-rows.ts) and the named queries over them.
 */
import type { EscalatedParams } from '../../../vocab/escalations.ts';

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
  /**
   * Who works on the task (the same on every row of it): the act's `params.assignee` when the
   * task enters the inbox, then whoever claims it or is given it (server/api/claims.ts); null: no one.
   */
  holder: string | null;
  /** Since when the holder holds it (epoch ms). */
  held_since: number | null;
  /** Who delegated the task to its holder; it returns to them to confirm the holder's answer. */
  delegator: string | null;
  /** The delegate's answer, waiting for the delegator to confirm it. */
  proposal: Record<string, unknown> | null;
  /** When the task is due (epoch ms, from the act's `params.due`); NEVER_DUE: no due date. */
  due_time: number;
  /** When to look at it again (`params.follow_up`); NEVER_DUE: never. */
  follow_up: number;
  /** Higher first (`params.priority`, default DEFAULT_PRIORITY). */
  priority: number;
  /**
   * What escalations changed in the task's params (engine escalation.ts; its rows were rebuilt
   * then): who may answer, its priority, the escalations so far; null: never escalated.
   */
  escalated: EscalatedParams | null;
}

/** The due time of a task without one: the last moment a JS date holds (sorts after every real one). */
export const NEVER_DUE = 8_640_000_000_000_000;
/** The priority of a task whose act names none. */
export const DEFAULT_PRIORITY = 50;

/** The fields of an inbox row whose task no one holds, with no due or follow-up date and the default priority. */
export const UNHELD_UNDATED = {
  holder: null,
  held_since: null,
  delegator: null,
  proposal: null,
  due_time: NEVER_DUE,
  follow_up: NEVER_DUE,
  priority: DEFAULT_PRIORITY,
  escalated: null,
} as const satisfies Partial<InboxRow>;

/**
 * Which inbox tasks a read wants: rows of any of `principals` (a task counts once), of model `mid`
 * if given, held by `holder` if given (null: held by no one).
 */
export interface InboxFilter {
  principals: readonly string[];
  mid?: string;
  holder?: string | null;
  /** Only tasks due before this time (epoch ms): the overdue ones, given now. */
  dueBefore?: number;
  /** Only tasks due at or after this time (epoch ms): with `dueBefore`, those that fell due in a window. */
  dueFrom?: number;
  /** Also the tasks this user holds, whoever they are offered to (given or delegated to them). */
  alsoHeldBy?: string;
}

/**
 * A page of inbox tasks: earliest start first (then creation order), or the reverse (`newestFirst`);
 * `order: 'due'`: the soonest due first (then the start order); `order: 'priority'`: the highest
 * priority first, then the soonest due, then the start order.
 */
export interface InboxPage extends InboxFilter {
  offset: number;
  limit: number;
  newestFirst?: boolean;
  order?: InboxOrder;
}

export type InboxOrder = 'start' | 'due' | 'priority';

/** Who holds an open inbox task: the fields of its rows a claim, a delegation or a reassignment sets. */
export type InboxHold = Pick<InboxRow, 'holder' | 'held_since' | 'delegator' | 'proposal'>;

/** The inbox's named queries (part of StoreQueries). */
export interface InboxQueries {
  /**
   * Sets the hold of an open inbox task on every row of it, if `expected` holds it now (null: no
   * one); whether it did (false: the task is no longer in the inbox, or another holds it).
   */
  setInboxHold(task: TaskRef, expected: string | null, hold: InboxHold): Promise<boolean>;
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
