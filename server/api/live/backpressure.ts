/**
 * Slow consumers: a client that does not read fast enough makes its engine.io write buffer grow.
 * Above `maxBuffered` packets the socket gets a `kicked` event (`reason: slow_consumer`, sent if
 * the transport still can) and is disconnected, its buffer discarded; it reconnects and catches up from its cursor, so it loses nothing, and the
 * server never buffers without limit. Checks run after every event flush (one pass over the
 * local sockets per macrotask that emitted events) and once a second.
 * State: armed (timer) → stopped.
 */
import type { Server, Socket } from 'socket.io';
import type { Logger } from 'pino';

export function bufferedPackets(socket: Socket): number {
  const buffer = (socket.conn as unknown as { writeBuffer?: unknown[] }).writeBuffer;
  return Array.isArray(buffer) ? buffer.length : 0;
}

export class Backpressure {
  private readonly timer: NodeJS.Timeout;
  kicked = 0;

  constructor(
    private readonly io: Server,
    private readonly maxBuffered: number,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => this.check(), 1000);
    this.timer.unref();
  }

  check(): void {
    for (const socket of this.io.of('/').sockets.values()) {
      const buffered = bufferedPackets(socket);
      if (buffered <= this.maxBuffered) continue;
      this.kicked++;
      this.log.warn({ socket: socket.id, user: socket.data.caller?.name, buffered }, 'disconnecting a slow socket.io client');
      socket.emit('kicked', { reason: 'slow_consumer', buffered });
      socket.disconnect();
      // drop what is buffered and close the transport now, instead of waiting for it to drain
      socket.conn.close(true);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
