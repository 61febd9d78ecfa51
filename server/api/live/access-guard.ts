/**
 * Keeps open sockets within their callers' current access. server/auth reports every change that
 * may take access away (API token revoked, session ended, user disabled, roles changed, password
 * set) — one made on this instance and, with several instances, one made on another (auth
 * carries them over the store's NOTIFY, server/auth/access-bus.ts, and drops its cached
 * credentials of that user before it tells this guard) —; the guard re-checks that user's sockets
 * on this instance. Re-checking a socket resolves its handshake credentials again:
 * - they no longer resolve: it gets `kicked { reason: 'access_revoked' }` and is disconnected
 *   (a reconnect is then refused at the handshake);
 * - the caller lost a joined room's permission, or (inbox) its roles now map to other inbox
 *   rooms: it leaves that room and gets `left { room, reason: 'access_changed' }` — joining again
 *   gives a fresh catch-up, or the refusal.
 * A socket's joins, leaves and re-checks run one at a time (socket-state.ts), so a join that
 * resolved its caller before a change cannot add a room after that change's re-check.
 *
 * Expired sessions name no user: after the server's sweep deleted some, `recheckAll` re-checks
 * every socket (here and, relayed as a socket.io server-side event over the PostgreSQL adapter's
 * NOTIFY channel, on the other instances).
 *
 * State: armed (auth listener and relay handler registered) → stopped (both removed).
 */
import type { Server, Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { AccessChange, Auth, Caller } from '../../auth/types.ts';
import { allows } from '../policy.ts';
import { callerInboxRooms, parseRoom, roomPermission } from './rooms.ts';
import { joinedRooms, leaveJoined, serialOf, socketCaller } from './socket-state.ts';

/** The server-side event that carries "re-check every socket" to the other instances. */
export const ACCESS_CHANGE_EVENT = 'acts:access-change';

export interface AccessGuardOptions {
  io: Server;
  auth: Auth;
  log: Logger;
  /** Relay `recheckAll` to other instances (only with an adapter that spans them). */
  relay: boolean;
}

const sameRooms = (a: string[], b: string[]): boolean => a.length === b.length && a.every((room) => b.includes(room));

/** Whether `caller` may still be in the rooms joined under `name`. */
function stillAllowed(caller: Caller, name: string, rooms: string[]): boolean {
  const ref = parseRoom(name);
  if (!ref || !allows(caller, roomPermission(ref))) return false;
  return ref.kind !== 'inbox' || sameRooms(rooms, callerInboxRooms(caller));
}

async function recheck(socket: Socket, auth: Auth, log: Logger): Promise<void> {
  if (socket.disconnected) return;
  const caller = await socketCaller(socket, auth);
  if (!caller) {
    log.info({ socket: socket.id, user: socket.data.caller?.name }, 'socket credentials no longer valid: disconnected');
    socket.emit('kicked', { reason: 'access_revoked' });
    socket.disconnect();
    return;
  }
  socket.data.caller = caller;
  for (const [name, rooms] of Object.entries(joinedRooms(socket))) {
    if (stillAllowed(caller, name, rooms)) continue;
    await leaveJoined(socket, name);
    log.info({ socket: socket.id, user: caller.name, room: name }, 'socket left a room its caller may no longer see');
    socket.emit('left', { room: name, reason: 'access_changed' });
  }
}

export interface AccessGuard {
  /**
   * Re-checks every socket, here and (relayed) on the other instances: sessions expired (the
   * server's sweep deleted some), whose users no change event names.
   */
  recheckAll(): void;
  stop(): void;
}

/** The relayed change that stands for "re-check every socket". */
const EVERYONE = '*';

export function guardAccess(options: AccessGuardOptions): AccessGuard {
  const { io, auth, log } = options;
  const recheckWhere = (concerned: (caller: Caller | undefined) => boolean) => {
    for (const socket of io.of('/').sockets.values()) {
      if (!concerned(socket.data.caller as Caller | undefined)) continue;
      serialOf(socket)
        .run(() => recheck(socket, auth, log))
        .catch((err: unknown) => log.error({ err: String(err), socket: socket.id }, 'socket access re-check failed'));
    }
  };
  const recheckUser = (userId: string) => recheckWhere((caller) => userId === EVERYONE || caller?.userId === userId);
  const offAuth = auth.onAccessChange((change: AccessChange) => recheckUser(change.userId));
  const fromOtherInstance = (change: unknown) => {
    const userId = (change as Partial<AccessChange> | null)?.userId;
    if (typeof userId === 'string') recheckUser(userId);
  };
  io.on(ACCESS_CHANGE_EVENT, fromOtherInstance);
  return {
    recheckAll: () => {
      recheckUser(EVERYONE);
      if (options.relay) io.serverSideEmit(ACCESS_CHANGE_EVENT, { userId: EVERYONE, reason: 'session_ended' } satisfies AccessChange);
    },
    stop: () => {
      offAuth();
      io.off(ACCESS_CHANGE_EVENT, fromOtherInstance);
    },
  };
}
