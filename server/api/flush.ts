/**
 * Waits until the engine's queued store writes landed, so a direct store read sees what the
 * engine already announced. The engine exposes no `flush()`; `messages.get` flushes before its
 * primary-key read, so this reads a message id that cannot exist (generated ids have no '-'). (Engine hook requested:
 * a public `engine.flush()`.)
 */
import type { Engine } from '../engine/engine.ts';

export async function flushEngineWrites(engine: Engine): Promise<void> {
  await engine.messages.get('-flush-');
}
