/** The statement files of the server's named queries (ServerQueries), bound by open-store.ts. */
export { deleteExpiredSessions } from './delete-expired-sessions.ts';
export { deleteSessionsOfUser } from './delete-sessions-of-user.ts';
export { draftsOfModel } from './drafts-of-model.ts';
export { draftsOfUser } from './drafts-of-user.ts';
export { insertAuditEntries } from './insert-audit-entries.ts';
export { tokenWithHash } from './token-with-hash.ts';
export { tokensOfUser } from './tokens-of-user.ts';
export { userNamed } from './user-named.ts';
export { dueNotifications } from './due-notifications.ts';
export { leaseNotification } from './lease-notification.ts';
