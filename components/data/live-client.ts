/**
 * One socket.io connection for the whole studio, shared by every page that listens to a room.
 * Pages subscribe to a room with the cursor of the read they rendered (or null for a full
 * snapshot); the client joins it (`join { room, cursor }`), routes events to the room's
 * listeners, remembers the largest cursor the room saw, and re-joins every room with that cursor
 * after a reconnect so the server's catch-up fills the gap. Catch-ups re-send current states, so
 * a listener may see the same task twice; listeners apply states by `tid`, messages by `id`.
 *
 * State: idle → connecting → connected ⇄ reconnecting (socket.io retries by itself; a server
 * that disconnects us on purpose, e.g. while restarting, is reconnected too) → closed.
 * `denied` when the server refuses the handshake (signed out): no more retries (a new client is
 * made after the next sign-in). A server that revokes the socket's access disconnects it (the
 * reconnect is then denied); one that only takes it out of a room (`left`, roles changed) gets
 * the room joined again.
 */
import { io, type Socket } from 'socket.io-client';
import { ApiError } from './api-error.ts';
import { LIVE_EVENT_TYPES, roomsOf, type LiveEvent } from './live-events.ts';

export type LiveStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'denied' | 'closed';
export type LiveListener = (event: LiveEvent) => void;

interface Room {
  /** Cursor to (re)join with: the largest seen, or the oldest a new listener asked for. */
  cursor: number | null;
  listeners: Set<LiveListener>;
  error: ApiError | null;
}

interface JoinReply {
  ok: boolean;
  error?: { code: ApiError['code']; message: string; details?: unknown };
}

const JOIN_TIMEOUT_MS = 10_000;

export class LiveClient {
  private socket: Socket | null = null;
  private status: LiveStatus = 'idle';
  private readonly rooms = new Map<string, Room>();
  private readonly watchers = new Set<() => void>();

  constructor(private readonly onDenied: () => void = () => undefined) {}

  getStatus = (): LiveStatus => this.status;

  /** Calls `fn` whenever the status or a room's join error changes; returns the unsubscribe. */
  watch = (fn: () => void): (() => void) => {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  };

  roomError(room: string): ApiError | null {
    return this.rooms.get(room)?.error ?? null;
  }

  start(): void {
    if (this.socket) return;
    const socket = io({ path: '/socket.io', withCredentials: true, reconnectionDelay: 500, reconnectionDelayMax: 5_000 });
    this.socket = socket;
    this.setStatus('connecting');
    socket.on('connect', () => {
      this.setStatus('connected');
      for (const [name, room] of this.rooms) this.join(name, room.cursor);
    });
    socket.on('disconnect', (reason) => {
      if (this.status === 'closed') return;
      this.setStatus('reconnecting');
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      const code = err.data?.code;
      if (code === 'auth.required' || code === 'auth.forbidden') {
        this.setStatus('denied');
        this.onDenied();
      } else if (this.status !== 'connecting') this.setStatus('reconnecting');
    });
    // The server took us out of a room after the user's access changed: join again (a fresh catch-up, or the refusal shown on the page).
    socket.on('left', (data: { room?: unknown }) => {
      const room = typeof data?.room === 'string' ? this.rooms.get(data.room) : undefined;
      if (room) this.join(data.room as string, room.cursor);
    });
    for (const type of LIVE_EVENT_TYPES) socket.on(type, (data: unknown) => this.dispatch({ type, data } as LiveEvent));
  }

  /** Listens to `room` from `cursor` on; returns the unsubscribe (the last one leaves the room). */
  subscribe(name: string, cursor: number | null, listener: LiveListener): () => void {
    let room = this.rooms.get(name);
    if (!room) {
      room = { cursor, listeners: new Set(), error: null };
      this.rooms.set(name, room);
    } else {
      room.cursor = cursor === null || room.cursor === null ? null : Math.min(room.cursor, cursor);
    }
    room.listeners.add(listener);
    this.join(name, cursor);
    return () => {
      room.listeners.delete(listener);
      if (room.listeners.size > 0 || this.rooms.get(name) !== room) return;
      this.rooms.delete(name);
      if (this.socket?.connected) this.socket.emit('leave', { room: name });
    };
  }

  close(): void {
    this.setStatus('closed');
    this.socket?.disconnect();
    this.socket?.removeAllListeners();
    this.socket = null;
    this.rooms.clear();
  }

  private join(name: string, cursor: number | null): void {
    const socket = this.socket;
    if (!socket?.connected) return;
    socket.timeout(JOIN_TIMEOUT_MS).emit('join', { room: name, cursor }, (timeout: Error | null, reply?: JoinReply) => {
      const room = this.rooms.get(name);
      if (!room) return;
      const failed = timeout ? new ApiError('unavailable', 'The server did not answer the live join.') : reply?.ok ? null : toJoinError(reply);
      if (failed?.code === 'unavailable' && socket.connected) return void setTimeout(() => this.rooms.has(name) && this.join(name, room.cursor), 1_000);
      if (room.error?.message === failed?.message) return;
      room.error = failed;
      this.notify();
    });
  }

  private dispatch(event: LiveEvent): void {
    const cursor = (event.data as { cursor?: unknown }).cursor;
    for (const name of roomsOf(event)) {
      const room = this.rooms.get(name);
      if (!room) continue;
      if (typeof cursor === 'number' && (room.cursor === null || cursor > room.cursor)) room.cursor = cursor;
      for (const listener of room.listeners) listener(event);
    }
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.notify();
  }

  private notify(): void {
    for (const fn of this.watchers) fn();
  }
}

function toJoinError(reply: JoinReply | undefined): ApiError {
  const error = reply?.error;
  return error ? new ApiError(error.code, error.message, error.details) : new ApiError('unavailable', 'The server refused the live join without a reason.');
}
