/**
 * The `audit` room's feed: an audit log that, after each entry it recorded, tells the room (admins'
 * sockets, on every instance through the adapter) `audit { cursor, action }` — a hint to read the
 * log again, not the entry. Recording and queries are the wrapped log's.
 */
import type { Server } from 'socket.io';
import type { AuditLog } from '../../audit/types.ts';
import { heardAnywhere } from './heard-broadcast.ts';
import { AUDIT_ROOM } from './rooms.ts';

export function withAuditFeed(log: AuditLog, io: () => Server | undefined, cursor: () => number = Date.now): AuditLog {
  return {
    record: async (entry) => {
      await log.record(entry);
      const server = io();
      if (server && heardAnywhere(server.sockets.adapter, [AUDIT_ROOM])) server.to(AUDIT_ROOM).emit('audit', { cursor: cursor(), action: entry.action });
    },
    query: (query) => log.query(query),
  };
}
