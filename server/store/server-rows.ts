/**
 * The server's own rows (server/auth, server/audit), kept next to the engine's in the same
 * database but outside the engine's `Store` interface: the engine never reads them. Times are
 * epoch milliseconds, like the engine's rows.
 */
import type { AuditEntry } from '../audit/types.ts';
import type { Collection } from './contract/types.ts';

export interface UserRow {
  id: string;
  /** Unique sign-in name. */
  name: string;
  /** argon2id PHC string; never leaves server/auth. */
  password_hash: string;
  /** Role names (JSON); server/auth checks them against `ROLES`. */
  roles: string[];
  /** The names of the groups the user belongs to (JSON; absent on rows written before groups). */
  groups?: string[] | null;
  /** Where inbox notifications go (server/notify); null or absent: the user gets no e-mail. */
  email?: string | null;
  disabled: boolean;
  create_time: number;
  update_time: number;
}

export interface SessionRow {
  /** SHA-256 hex of the session's secret (the secret itself is never stored). */
  id: string;
  user_id: string;
  expires: number;
  create_time: number;
  last_seen: number;
}

/** An active API token; revoking deletes the row (so no concurrent write can bring it back). */
export interface ApiTokenRow {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 hex of the token's secret (the secret itself is never stored). */
  token_hash: string;
  create_time: number;
  last_used: number | null;
}

/**
 * A designer's unsaved work on one model (server/drafts): one row per user and model, or per user
 * and draft key for a workflow never deployed (`mid` is then '').
 */
export interface DraftRow {
  id: string;
  user_id: string;
  /** The user's sign-in name when saved (shown to the other designers of the model). */
  user_name: string;
  /** The deployed model it edits; '' for a workflow never deployed. */
  mid: string;
  /** The workflow's name (else its id) in the text when saved, for lists. */
  title: string;
  /** The YAML text. */
  source: string;
  /** Node positions the user dragged, by node id (never in the YAML). */
  layout: Record<string, { x: number; y: number }>;
  /** The deployed version the text started from; 0 for a workflow never deployed. */
  base_ver: number;
  create_time: number;
  update_time: number;
}

/**
 * A secret of the project (server/secrets), encrypted with the server's key: the clear value is
 * never stored. `id` is the secret's name.
 */
export interface SecretRow {
  id: string;
  /** base64 of the AES-256-GCM ciphertext followed by its 16-byte tag (the name is the associated data). */
  value: string;
  /** base64 of the random 12-byte nonce of this value. */
  iv: string;
  /** Which key encrypted it (secrets/key.ts `keyId`): a later rotation re-encrypts rows of an old id. */
  key_id: string;
  create_time: number;
  /** The user name of whoever created it. */
  create_by: string;
  update_time: number;
  /** The user name of whoever set its current value. */
  update_by: string;
}

/** A team of users (server/auth groups.ts) an interrupt act may be offered to; `id` is its name. Members: `UserRow.groups`. */
export interface GroupRow {
  id: string;
  description: string;
  create_time: number;
  update_time: number;
}

/** How far a notification e-mail got: waiting to be sent (or retried), sent, not needed any more (the task was answered first), or given up. */
export type NotificationState = 'pending' | 'sent' | 'dropped' | 'failed';

/**
 * An e-mail about an inbox task to one user (server/notify). `id` is `<kind>/<pid>/<tid>/<user>`:
 * created once (a second create is refused), so however many instances see the task, one row is
 * sent; an instance sends it after moving `lease_until` from the value it read (leaseNotification).
 */
export interface NotificationRow {
  id: string;
  /** `arrived`: the task entered the inbox; `due`: its due time passed while it was open. */
  kind: string;
  pid: string;
  tid: string;
  user_name: string;
  /** The address when the row was made. */
  email: string;
  state: NotificationState;
  /** Sending attempts so far. */
  attempts: number;
  /** When it may be (re)tried (epoch ms). */
  next_time: number;
  /** Until when an instance holds it for sending (0: no one). */
  lease_until: number;
  /** The last failure, for the log and the admins. */
  error: string | null;
  create_time: number;
  update_time: number;
}

/** A one-click link of a notification e-mail, once used: `id` is the link's, so a second use finds it. */
export interface MailLinkUseRow {
  id: string;
  pid: string;
  tid: string;
  user_name: string;
  /** The answer the link gives (an outcome's name, or approve / reject). */
  action: string;
  use_time: number;
  /** How the use ended: `ok`, or the code it was refused with. */
  result: string;
}

/** An audit entry as stored: exactly the API's AuditEntry. */
export type AuditRow = AuditEntry;

/** The server's collections, opened with (and on the same database connection as) the engine's store. */
export interface ServerCollections {
  users: Collection<UserRow>;
  sessions: Collection<SessionRow>;
  apiTokens: Collection<ApiTokenRow>;
  audit: Collection<AuditRow>;
  drafts: Collection<DraftRow>;
  secrets: Collection<SecretRow>;
  groups: Collection<GroupRow>;
  notifications: Collection<NotificationRow>;
  mailLinkUses: Collection<MailLinkUseRow>;
}

export type ServerCollectionName = keyof ServerCollections;

/**
 * The server's fixed questions by name, like the engine's `StoreQueries` (same conventions): the
 * memory store answers them in the query language (memory-server-queries.ts), the SQL stores with
 * one statement file each (sql/server-queries.ts).
 */
export interface ServerQueries {
  /** The user with the sign-in name `name`. */
  userNamed(name: string): Promise<UserRow | undefined>;
  /** The API tokens of a user, oldest first (`create_time`, then `id`). */
  tokensOfUser(userId: string): Promise<ApiTokenRow[]>;
  /** The API token whose secret hashes to `tokenHash`. */
  tokenWithHash(tokenHash: string): Promise<ApiTokenRow | undefined>;
  /** Deletes every session of a user; returns how many. */
  deleteSessionsOfUser(userId: string): Promise<number>;
  /** Deletes the sessions whose `expires` is at or before `now` (of one user, or of all); returns how many. */
  deleteExpiredSessions(now: number, userId?: string): Promise<number>;
  /** The drafts of a user, most recently saved first (`update_time` descending, then `id`). */
  draftsOfUser(userId: string): Promise<DraftRow[]>;
  /** The drafts of a deployed model (every user's), most recently saved first (`update_time` descending, then `id`). */
  draftsOfModel(mid: string): Promise<DraftRow[]>;
  /** Adds audit entries under fresh ids, all in one write. */
  insertAuditEntries(rows: readonly AuditRow[]): Promise<void>;
  /** Pending notifications whose `next_time` is at or before `now` and whose lease ended before `now`, soonest first (`next_time`, then `id`), at most `limit`. */
  dueNotifications(now: number, limit: number): Promise<NotificationRow[]>;
  /** Moves a pending notification's `lease_until` from `expected` to `until`; whether it did (false: another instance took it, or it is no longer pending). */
  leaseNotification(id: string, expected: number, until: number): Promise<boolean>;
}

/** The server's collections and its named queries, on the store `openStore` opens. */
export interface ServerStore extends ServerCollections {
  serverQueries: ServerQueries;
}
