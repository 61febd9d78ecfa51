/**
 * The audit log contract (issue 4, item 4): every deploy, start, client action, ack and role change
 * is recorded with who, when, what and the result. server/audit implements it on the store.
 */

export interface AuditEntry {
  id: string;
  /** Epoch ms. */
  time: number;
  /** The user id of the caller (or `system`). */
  actor: string;
  actor_name: string;
  /** What was done: `model.deploy`, `proc.start`, `task.complete`, `message.ack`, `user.roles` … */
  action: string;
  /** What it was done to: a model id, a pid, `pid/tid`, a delivery id, a user id. */
  target: string;
  /** The request's essentials (bounded in size; never passwords or tokens). */
  detail: unknown;
  /** `ok`, or the stable error code of the refusal. */
  result: string;
}

export interface AuditQuery {
  actor?: string;
  action?: string;
  target?: string;
  /** This target or any under it (`<targetUnder>/…`): a process and its tasks. */
  targetUnder?: string;
  /** Epoch ms bounds, inclusive. */
  from?: number;
  to?: number;
  offset?: number;
  limit?: number;
}

export interface AuditLog {
  /** `detailBytes`: a larger bound of the detail than MAX_DETAIL_BYTES (a list of what one entry covers), at most MAX_LIST_DETAIL_BYTES. */
  record(entry: Omit<AuditEntry, 'id' | 'time'> & { time?: number; detailBytes?: number }): Promise<void>;
  query(query: AuditQuery): Promise<{ count: number; rows: AuditEntry[] }>;
}
