/**
 * Presence in the designer: the room `design:<mid>` holds the sockets of the designers who have
 * model <mid> open. Whenever a socket joins or leaves one (or disconnects while in it), every
 * socket in the room gets `presence { room, cursor, editors: [{ name }] }`: the distinct user names
 * in the room now, sorted (fetchSockets: on PostgreSQL, those of every instance). A client shows
 * the names other than its own.
 *
 * State: none of its own; the rooms are socket.io's.
 */
import type { Namespace } from 'socket.io';
import type { Caller } from '../../auth/types.ts';

export interface PresenceEvent {
  room: string;
  cursor: number;
  editors: Array<{ name: string }>;
}

/** Tells every socket in the presence room `room` who is in it. */
export async function announcePresence(nsp: Namespace, room: string): Promise<void> {
  const sockets = await nsp.in(room).fetchSockets();
  const names = new Set(sockets.map((s) => (s.data as { caller?: Caller }).caller?.name).filter((n): n is string => typeof n === 'string'));
  const event: PresenceEvent = { room, cursor: Date.now(), editors: [...names].sort().map((name) => ({ name })) };
  nsp.to(room).emit('presence', event);
}
