/**
 * Joining a room with catch-up, so no update is lost between page load and socket join, or
 * across a reconnect.
 *
 * Cursor design. A cursor is an epoch-ms time: live events carry the time the sending instance
 * queued them, tRPC reads (`processes.get`, `processes.list`, `inbox.list`) return the time
 * before they read, and a catch-up carries the time of its snapshot. The client keeps the
 * largest cursor it saw and sends it when it (re)joins. Catch-up is derived from store state,
 * not from an in-memory log, so it works on any server instance:
 * - `proc:<pid>`: the current state of every task that is still open or ended at or after
 *   `cursor − skew`, the process state, then the process's messages created since then.
 *   Without a cursor: every task (the full graph).
 * - `model:<mid>`: processes of the model that started or ended since `cursor − skew`.
 * - `inbox`: the caller's whole inbox (a snapshot: its first `maxItems + 1` tasks), minus tasks
 *   this instance saw leave it while the snapshot was read.
 * - `health`: the current health.
 * `skew` (default 2 s) absorbs clock differences between instances. Catch-up re-sends current
 * states, so duplicates are harmless (clients apply states by `tid`, messages by `id`). Above
 * `maxItems` the catch-up says `resync: true`: reload through tRPC.
 *
 * Ordering: the bridge's queue is flushed, then the socket joins, then the task states are read
 * (a resident process is read from memory without yielding to the event loop), then sent — so
 * every live event the client gets afterwards is newer than the snapshot. Messages are read
 * afterwards and may arrive after newer live messages; clients order messages by `create_time`.
 * Across instances, events another instance broadcast just before the join may still arrive
 * after it (NOTIFY latency); they come in emission order, so applying events in arrival order
 * still ends in the current state.
 * Across instances: the bridge emits an event only once the engine batch holding its effect is
 * written (bridge.ts), so an event a client missed because it joined just after it went out is
 * already in the store the catch-up reads.
 */
import type { Socket } from 'socket.io';
import type { Caller } from '../../auth/types.ts';
import type { Engine } from '../../runtime/engine.ts';
import { inboxOf } from '../inbox-query.ts';
import { isTerminalName } from '../../../vocab/states.ts';
import type { LiveBridge } from './bridge.ts';
import { capValue, inboxEvent, messageEvent, taskEvent } from './payloads.ts';
import { callerInboxRooms, modelRoom, procRoom, type RoomRef } from './rooms.ts';
import { healthSnapshot } from './health-feed.ts';
import { announcePresence } from './presence.ts';

export interface CatchUpDeps {
  engine: Engine;
  bridge: LiveBridge;
  skewMs: number;
  maxItems: number;
}

type Emit = (payload: Record<string, unknown>) => void;

async function joinProc(socket: Socket, pid: string, cursor: number | null, deps: CatchUpDeps, emit: Emit): Promise<string[]> {
  const room = procRoom(pid);
  deps.bridge.flush();
  await socket.join(room);
  const { tasks, ...proc } = await deps.engine.procs.get(pid);
  const snapshotCursor = deps.bridge.cursor();
  const since = cursor === null ? null : cursor - deps.skewMs;
  const changed = since === null ? tasks : tasks.filter((t) => !isTerminalName(t.state) || t.end_time >= since || t.start_time >= since);
  const process = { pid: proc.pid, mid: proc.mid, state: proc.state, start_time: proc.start_time, end_time: proc.end_time, err: proc.err, outcome: proc.outcome, outputs: capValue(proc.outputs), control: proc.control };
  if (changed.length > deps.maxItems) {
    emit({ cursor: snapshotCursor, process, resync: true });
    return [room];
  }
  emit({ cursor: snapshotCursor, process, tasks: changed.map((t) => taskEvent(t, snapshotCursor)) });
  if (since === null) return [room];
  const messages = await deps.engine.reads.processMessagesSince(pid, since, deps.maxItems + 1);
  if (messages.length > deps.maxItems) emit({ cursor: snapshotCursor, resync: true });
  else emit({ cursor: snapshotCursor, messages: messages.map((m) => messageEvent(m, snapshotCursor)) });
  return [room];
}

async function joinModel(socket: Socket, mid: string, cursor: number | null, deps: CatchUpDeps, emit: Emit): Promise<string[]> {
  const room = modelRoom(mid);
  deps.bridge.flush();
  await socket.join(room);
  const snapshotCursor = deps.bridge.cursor();
  if (cursor === null) {
    emit({ cursor: snapshotCursor, processes: [] });
    return [room];
  }
  const since = cursor - deps.skewMs;
  const rows = await deps.engine.reads.modelProcessesChangedSince(mid, since, deps.maxItems + 1);
  const processes = rows.map((r) => ({ pid: r.id, mid: r.mid, state: r.state, start_time: r.start_time, end_time: r.end_time, err: r.err, outcome: r.outcome ?? null }));
  emit(rows.length > deps.maxItems ? { cursor: snapshotCursor, resync: true } : { cursor: snapshotCursor, processes });
  return [room];
}

async function joinInbox(socket: Socket, caller: Caller, deps: CatchUpDeps, emit: Emit): Promise<string[]> {
  const rooms = callerInboxRooms(caller);
  deps.bridge.flush();
  const started = deps.bridge.cursor();
  await socket.join(rooms);
  const { items } = await inboxOf(deps.engine, caller, { offset: 0, limit: deps.maxItems + 1 });
  const removed = deps.bridge.removedSince(started);
  const snapshotCursor = deps.bridge.cursor();
  const open = items.filter((i) => !removed.has(`${i.pid}/${i.tid}`));
  const inbox = open.map((i) => inboxEvent('added', i.pid, i.tid, i, snapshotCursor).item);
  emit(open.length > deps.maxItems ? { cursor: snapshotCursor, resync: true } : { cursor: snapshotCursor, inbox });
  return rooms;
}

/** Joins the socket to the room (inbox: its per-user and per-role rooms) and sends the catch-up. */
export async function joinWithCatchUp(socket: Socket, ref: RoomRef, name: string, cursor: number | null, caller: Caller, deps: CatchUpDeps): Promise<string[]> {
  const emit: Emit = (payload) => void socket.emit('catchup', { room: name, ...payload });
  switch (ref.kind) {
    case 'proc':
      return joinProc(socket, ref.id, cursor, deps, emit);
    case 'model':
      return joinModel(socket, ref.id, cursor, deps, emit);
    case 'inbox':
      return joinInbox(socket, caller, deps, emit);
    case 'health':
      await socket.join(name);
      emit({ cursor: deps.bridge.cursor(), health: healthSnapshot(deps.engine) });
      return [name];
    case 'design':
      // presence, not history: who is in the room now goes to everyone in it (presence.ts)
      await socket.join(name);
      await announcePresence(socket.nsp, name);
      return [name];
    case 'audit':
      // entries are not replayed: what was added between the client's read (or its last event) and
      // this join is unknown, so the client reads the log again
      await socket.join(name);
      emit({ cursor: deps.bridge.cursor(), resync: true });
      return [name];
  }
}
