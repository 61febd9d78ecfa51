/**
 * A broadcast no socket of this instance can hear is not encoded. socket.io's in-memory adapter
 * serializes every packet before it looks for receivers, so each engine event went through
 * socket.io-parser even when nobody had joined its rooms — a server started by API calls with no
 * studio open spent ~4 % of its CPU encoding events for nobody (bench:http profile). Other
 * instances are not this check's business: the PostgreSQL adapter publishes to them on its own.
 */
import { Adapter, type BroadcastOptions } from 'socket.io-adapter';

/** Whether a socket of this instance is in one of `rooms` (any socket when they are none). */
function socketHereIn(adapter: Adapter, rooms: Iterable<string>): boolean {
  let named = false;
  for (const room of rooms) {
    if ((adapter.rooms.get(room)?.size ?? 0) > 0) return true;
    named = true;
  }
  return !named && adapter.sids.size > 0;
}

/** Whether a socket of this instance is in one of the broadcast's rooms (any socket when it names none). */
export function heardHere(adapter: Adapter, opts: BroadcastOptions): boolean {
  return socketHereIn(adapter, opts.rooms);
}

/**
 * Whether a broadcast to `rooms` (every socket when none) would reach anyone: a socket of this
 * instance, or another instance — a cluster adapter (pg-adapter.ts) publishes to the instances
 * it knows, and knowing none it publishes nothing. The live bridge and the audit feed ask before
 * they broadcast: `io.to(…).emit(…)` builds a broadcast operator, a packet and the rooms' set per
 * event, ~15 % of what an API start allocated with no socket listening (bench:http).
 */
export function heardAnywhere(adapter: Adapter, rooms: readonly string[]): boolean {
  const others = (adapter as Adapter & { nodesMap?: Map<string, unknown> }).nodesMap;
  if (!(adapter instanceof HeardAdapter) && (others === undefined || others.size > 0)) return true;
  return socketHereIn(adapter, rooms);
}

/** The in-memory adapter, broadcasting only what a socket here can hear. */
export class HeardAdapter extends Adapter {
  override broadcast(packet: unknown, opts: BroadcastOptions): void {
    if (heardHere(this, opts)) super.broadcast(packet as never, opts);
  }
}
