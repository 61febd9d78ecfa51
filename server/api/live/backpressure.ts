/**
 * Slow consumers: a client that does not read fast enough makes its engine.io write buffer grow.
 * Above `maxBuffered` packets the socket gets a `kicked` event (`reason: slow_consumer`) and is
 * disconnected; it reconnects and catches up from its cursor, so it loses nothing, and the
 * server never buffers without limit. Checks run after event flushes (at most every
 * `minGapMs`) and on a timer.
 * State: armed (timer) → stopped.
 */
import type { Server, Socket } from 'socket.io';
import type { Logger } from 'pino';

export function bufferedPackets(socket: Socket): number {
  const buffer = (socket.conn as unknown as { writeBuffer?: unknown[] }).writeBuffer;
  return Array.isArray(buffer) ? buffer.length : 0;
}

export class Backpressure {
  private lastCheck = 0;
  private readonly timer: NodeJS.Timeout;
  kicked = 0;

  constructor(
    private readonly io: Server,
    private readonly maxBuffered: number,
    private readonly log: Logger,
    private readonly minGapMs = 100,
  ) {
    this.timer = setInterval(() => this.check(), 1000);
    this.timer.unref();
  }

  /** Called after a flush: checks unless it checked less than `minGapMs` ago. */
  afterFlush(): void {
    if (Date.now() - this.lastCheck >= this.minGapMs) this.check();
  }

  check(): void {
    this.lastCheck = Date.now();
    for (const socket of this.io.of('/').sockets.values()) {
      const buffered = bufferedPackets(socket);
      if (buffered <= this.maxBuffered) continue;
      this.kicked++;
      this.log.warn({ socket: socket.id, user: socket.data.caller?.name, buffered }, 'disconnecting a slow socket.io client');
      socket.emit('kicked', { reason: 'slow_consumer', buffered });
      socket.disconnect(true);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
