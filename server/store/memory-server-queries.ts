/**
 * `ServerQueries` in the query language, over the server's collections: the memory store's (the
 * SQL stores run sql/server-queries.ts); test/store-queries.test.ts holds both to one answer.
 */
import { and, eq, firstOf, is, rowsOf } from './contract/filters.ts';
import type { ServerCollections, ServerQueries } from './server-rows.ts';

export function memoryServerQueries({ users, sessions, apiTokens, audit, drafts, notifications }: ServerCollections): ServerQueries {
  return {
    userNamed: (name) => firstOf(users, and(eq('name', name))),
    tokensOfUser: (userId) => rowsOf(apiTokens, and(eq('user_id', userId)), ['create_time', 'id']),
    tokenWithHash: (tokenHash) => firstOf(apiTokens, and(eq('token_hash', tokenHash))),
    deleteSessionsOfUser: (userId) => sessions.deleteWhere(and(eq('user_id', userId))),
    deleteExpiredSessions: (now, userId) =>
      sessions.deleteWhere(userId === undefined ? and(is('expires', 'le', now)) : and(eq('user_id', userId), is('expires', 'le', now))),
    draftsOfUser: (userId) => rowsOf(drafts, and(eq('user_id', userId)), ['-update_time', 'id']),
    draftsOfModel: (mid) => rowsOf(drafts, and(eq('mid', mid)), ['-update_time', 'id']),
    insertAuditEntries: async (rows) => {
      for (const row of rows) await audit.create(row);
    },
    dueNotifications: (now, limit) => rowsOf(notifications, and(eq('state', 'pending'), is('next_time', 'le', now), is('lease_until', 'lt', now)), ['next_time', 'id'], limit),
    leaseNotification: async (id, expected, until) => {
      const row = await notifications.find(id);
      if (!row || row.state !== 'pending' || row.lease_until !== expected) return false;
      await notifications.update({ ...row, lease_until: until });
      return true;
    },
  };
}
