/**
 * What the server keeps on each socket (`socket.data`): its caller, the rooms it joined under
 * each requested room name (`inbox` maps to several), and the Serial that runs its joins, leaves
 * and access re-checks one at a time.
 *
 * State per socket: the caller is set at the handshake and by every join or re-check; a name is
 * `joined` from a successful join until a leave or a re-check that found it no longer allowed.
 */
import type { Socket } from 'socket.io';
import { Serial } from '../../auth/serial.ts';
import type { Auth, Caller } from '../../auth/types.ts';
import { resolveCaller, sessionFromCookies } from '../context.ts';
import { announcePresence } from './presence.ts';
import { isDesignRoom } from './rooms.ts';

/** The caller of the socket's handshake credentials now (an API token, else the session cookie); null once they no longer resolve. */
export function socketCaller(socket: Socket, auth: Auth): Promise<Caller | null> {
  const token = typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : null;
  return resolveCaller(auth, token, token ? null : sessionFromCookies(socket.handshake.headers.cookie));
}

export function serialOf(socket: Socket): Serial {
  socket.data.serial ??= new Serial();
  return socket.data.serial as Serial;
}

/** Requested room name → the socket.io rooms it joined for it. */
export function joinedRooms(socket: Socket): Record<string, string[]> {
  socket.data.joined ??= {};
  return socket.data.joined as Record<string, string[]>;
}

export function recordJoined(socket: Socket, name: string, rooms: string[]): void {
  joinedRooms(socket)[name] = rooms;
}

/** Leaves every room joined for `name` (nothing when it was not joined); a presence room hears who is left. */
export async function leaveJoined(socket: Socket, name: string): Promise<void> {
  const joined = joinedRooms(socket);
  const rooms = joined[name] ?? [];
  for (const room of rooms) await socket.leave(room);
  delete joined[name];
  for (const room of rooms) if (isDesignRoom(room)) await announcePresence(socket.nsp, room);
}

/** After a disconnect: the presence rooms the socket was in hear who is left. */
export async function announceDeparture(socket: Socket): Promise<void> {
  for (const room of Object.values(joinedRooms(socket)).flat()) if (isDesignRoom(room)) await announcePresence(socket.nsp, room);
}
