/**
 * Scale-out: on PostgreSQL, socket.io rooms span every server instance through
 * @socket.io/postgres-adapter (LISTEN/NOTIFY over a small `pg` pool). Live payloads are capped
 * (payloads.ts) below NOTIFY's 8000-byte limit, so the adapter's attachment table is not needed
 * for them. The pool has exactly two connections: the adapter's LISTEN client holds one, and every
 * publish queues FIFO on the other — so NOTIFYs leave in emission order and a client on another
 * instance sees a process's events in order (a larger pool reorders concurrent publishes).
 * Three changes to the adapter (localFirst): a broadcast reaches this instance's sockets at once and
 * goes to the other instances behind it — the cluster adapter held the local delivery until its
 * NOTIFY came back, so under load every live event of this instance queued on the publishing
 * connection (bench:http, 64 clients: action → event p99 451 ms on PostgreSQL) —; its local part
 * is encoded only when a socket here can hear it (heard-broadcast.ts); and it is published only
 * while another instance is known. The adapter knows the others by their
 * heartbeats: an instance announces itself when its adapter starts (each known one answers at
 * once) and every 5 s, and one silent for 10 s is forgotten. A lone server on PostgreSQL so sends
 * no NOTIFY per live event (there were ~3.4 per client action); a broadcast in the milliseconds
 * between a new instance's start and its announcement arriving is not sent to it, before any of
 * its sockets could have joined a room (a join's catch-up reads the store).
 * State: open (pool) → closed.
 */
import { createAdapter } from '@socket.io/postgres-adapter';
import { Adapter, MessageType, type BroadcastOptions } from 'socket.io-adapter';
import pg from 'pg';
import { heardHere } from './heard-broadcast.ts';
import type { Logger } from 'pino';

type AdapterFactory = ReturnType<typeof createAdapter>;

/**
 * The part of the cluster adapter a broadcast uses: `publish` queues a message without waiting
 * for it; `nodesMap` holds the other instances heard from (by their heartbeats).
 */
interface Publishing {
  publish(message: { type: MessageType; data: unknown }): void;
  nodesMap: Map<string, number>;
}

/** The adapter `make` builds, whose broadcasts go to local sockets first and are published behind them. */
function localFirst(make: AdapterFactory): AdapterFactory {
  // a function, not an arrow: socket.io calls it with `new`
  return function (nsp: Parameters<AdapterFactory>[0]) {
    const adapter = make(nsp);
    adapter.broadcast = async (packet: unknown, opts: BroadcastOptions) => {
      const cluster = adapter as unknown as Publishing;
      if (!opts.flags?.local && cluster.nodesMap.size > 0) {
        // serialized at once (the adapter's client stringifies before it waits), so the local
        // delivery below cannot change what other instances get
        const data = { packet, opts: { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags } };
        cluster.publish({ type: MessageType.BROADCAST, data });
      }
      if (heardHere(adapter, opts)) Adapter.prototype.broadcast.call(adapter, packet, opts);
    };
    return adapter;
  };
}

export interface PgAdapter {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

export function postgresAdapter(url: string, log: Logger): PgAdapter {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', (err) => log.error({ err: err.message }, 'socket.io postgres adapter pool error'));
  const adapter = localFirst(
    createAdapter(pool, {
      channelPrefix: 'acts_live',
      errorHandler: (err) => log.debug({ err: err.message }, 'socket.io postgres adapter'),
    }),
  );
  return { adapter, close: () => pool.end() };
}
