/**
 * The `health` room's feed: every `intervalMs` this instance sends its health (timer loops,
 * lanes, store writer, stuck processes, runtime figures) to the room while anyone may be in it: a
 * socket of this instance, or one of another instance the cluster adapter reaches (heard-broadcast.ts).
 * State: running (interval armed) → stopped.
 */
import type { Server } from 'socket.io';
import type { Engine } from '../../runtime/engine.ts';
import { heardAnywhere } from './heard-broadcast.ts';
import { HEALTH_ROOM } from './rooms.ts';

export function healthSnapshot(engine: Engine) {
  return { instance: engine.instanceId, ...engine.health(), stats: engine.stats() };
}

export function startHealthFeed(engine: Engine, io: Server, intervalMs: number, cursor: () => number): () => void {
  const timer = setInterval(() => {
    if (!heardAnywhere(io.of('/').adapter, [HEALTH_ROOM])) return;
    io.to(HEALTH_ROOM).emit('health', { ...healthSnapshot(engine), cursor: cursor() });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
