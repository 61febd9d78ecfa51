/**
 * socket.io at `/socket.io` on the server's http server. A connection authenticates like the
 * API: `auth: { token }` in the handshake (an API token) or the session cookie; a cookie
 * handshake must come from the same origin (Origin host = Host, or an allowed origin) so another
 * site cannot open a socket with the user's cookie. Clients `join` rooms with an optional cursor
 * (catch-up.ts) and `leave` them; every join re-checks the caller and the room's permission, and
 * every access change re-checks the user's open sockets (access-guard.ts).
 *
 * State: open (bridge, health feed, backpressure and access guard armed) → closed (sockets
 * disconnected).
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Auth, Caller } from '../../auth/types.ts';
import type { Engine } from '../../runtime/engine.ts';
import { ActError } from '../../engine/errors.ts';
import { sessionFromCookies } from '../context.ts';
import { publicError, toActError } from '../errors.ts';
import { requirePermission } from '../policy.ts';
import { guardAccess } from './access-guard.ts';
import { Backpressure } from './backpressure.ts';
import { HeardAdapter } from './heard-broadcast.ts';
import { LiveBridge } from './bridge.ts';
import { joinWithCatchUp } from './catch-up.ts';
import { startHealthFeed } from './health-feed.ts';
import { parseRoom, roomPermission } from './rooms.ts';
import { announceDeparture, leaveJoined, recordJoined, serialOf, socketCaller } from './socket-state.ts';

export interface LiveOptions {
  engine: Engine;
  auth: Auth;
  log: Logger;
  now?: () => number;
  /** Clock skew tolerated between instances in catch-up (default 2000 ms). */
  skewMs?: number;
  /** Most items one catch-up sends before it says `resync` (default 2000). */
  maxCatchUp?: number;
  /** Packets a socket may have waiting before it is disconnected (default 1000). */
  maxBufferedPackets?: number;
  healthIntervalMs?: number;
  /** Origins allowed for cookie-authenticated sockets besides the server's own. */
  allowedOrigins?: string[];
  /** A socket.io adapter (the PostgreSQL one for several instances). */
  adapter?: Parameters<Server['adapter']>[0];
}

export interface Live {
  io: Server;
  bridge: LiveBridge;
  backpressure: Backpressure;
  /** Re-checks every socket's credentials (after expired sessions were deleted). */
  recheckSockets(): void;
  close(): Promise<void>;
}

const MAX_ROOMS_PER_SOCKET = 50;

const joinRequest = z.object({ room: z.string().min(1).max(220), cursor: z.number().int().min(0).nullable().optional() });

function sameOrigin(origin: string | undefined, host: string | undefined, allowed: string[]): boolean {
  if (!origin) return true;
  if (allowed.includes(origin)) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

async function handshakeCaller(socket: Socket, auth: Auth, allowedOrigins: string[]): Promise<Caller> {
  const byCookie = typeof socket.handshake.auth?.token !== 'string' && sessionFromCookies(socket.handshake.headers.cookie) !== null;
  if (byCookie && !sameOrigin(socket.handshake.headers.origin, socket.handshake.headers.host, allowedOrigins)) {
    throw new ActError('auth.forbidden', 'a cookie-authenticated socket must come from this site');
  }
  const caller = await socketCaller(socket, auth);
  if (!caller) throw new ActError('auth.required', 'sign in first (session cookie or auth.token)');
  return caller;
}

function connectError(err: unknown): Error {
  const pub = publicError(toActError(err));
  return Object.assign(new Error(pub.message), { data: pub });
}

export async function attachLive(server: HttpServer, options: LiveOptions): Promise<Live> {
  const { engine, auth, log } = options;
  const allowedOrigins = options.allowedOrigins ?? [];
  const io = new Server(server, { path: '/socket.io', serveClient: false, maxHttpBufferSize: 64 * 1024 });
  io.adapter(options.adapter ?? HeardAdapter);
  const backpressure = new Backpressure(io, options.maxBufferedPackets ?? 1000, log);
  const bridge = new LiveBridge(engine, io, options.now ?? Date.now, () => backpressure.check());
  await bridge.start();
  const stopHealth = startHealthFeed(engine, io, options.healthIntervalMs ?? 5000, () => bridge.cursor());
  const deps = { engine, bridge, skewMs: options.skewMs ?? 2000, maxItems: options.maxCatchUp ?? 2000 };

  io.use((socket, next) => {
    handshakeCaller(socket, auth, allowedOrigins).then(
      (caller) => {
        socket.data.caller = caller;
        next();
      },
      (err) => next(connectError(err)),
    );
  });

  io.on('connection', (socket) => {
    socket.on('join', (raw: unknown, ack?: (reply: unknown) => void) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      void serialOf(socket).run(async () => {
        try {
          const request = joinRequest.parse(raw);
          const ref = parseRoom(request.room);
          if (!ref) throw new ActError('input.invalid', `'${request.room}' is not a room (proc:<pid>, model:<mid>, design:<mid>, inbox, health, audit)`);
          if (socket.rooms.size > MAX_ROOMS_PER_SOCKET) throw new ActError('input.too_large', `a socket may join at most ${MAX_ROOMS_PER_SOCKET} rooms`);
          const caller = requirePermission(await socketCaller(socket, auth), roomPermission(ref));
          socket.data.caller = caller;
          recordJoined(socket, request.room, await joinWithCatchUp(socket, ref, request.room, request.cursor ?? null, caller, deps));
          reply({ ok: true, room: request.room });
        } catch (err) {
          const act = toActError(err);
          if (act.code === 'internal') log.error({ err: String(err), socket: socket.id }, 'socket join failed');
          reply({ ok: false, error: publicError(act) });
        }
      });
    });
    socket.on('disconnect', () => {
      announceDeparture(socket).catch((err: unknown) => log.error({ err: String(err), socket: socket.id }, 'presence update failed'));
    });
    socket.on('leave', (raw: unknown, ack?: (reply: unknown) => void) => {
      const name = typeof (raw as { room?: unknown })?.room === 'string' ? (raw as { room: string }).room : '';
      serialOf(socket)
        .run(async () => {
          await leaveJoined(socket, name);
          if (typeof ack === 'function') ack({ ok: true, room: name });
        })
        .catch((err: unknown) => log.error({ err: String(err), socket: socket.id }, 'socket leave failed'));
    });
  });
  const guard = guardAccess({ io, auth, log, relay: options.adapter !== undefined });

  return {
    io,
    bridge,
    backpressure,
    recheckSockets: () => guard.recheckAll(),
    close: async () => {
      guard.stop();
      stopHealth();
      backpressure.stop();
      bridge.close();
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
