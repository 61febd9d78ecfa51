/** The typed engine event map (feeds logs, metrics, the CLI and tests) and its emitter. */
import type { Message } from '../engine/messages.ts';
import type { Process } from '../engine/process.ts';
import type { WriterSaturation } from './store-writer.ts';
import type { Task } from '../engine/task.ts';

export interface EngineEvents {
  /** Every task state change that was emitted. */
  task: { proc: Process; task: Task };
  /** Every message, before channels receive it. */
  message: Message;
  /** A process reached a terminal state. */
  finished: Process;
  /**
   * The store batch of job number `seq` (see `Core.batchSeq`) was written (`ok`) or failed: every
   * event emitted before that job's end is now in the store (or never will be). In `seq` order.
   */
  committed: { seq: number; pids: string[]; ok: boolean };
  /**
   * The store writer became saturated (its depth reached the cap: new starts and client actions
   * are refused) or drained to half the cap (accepted again). See store-writer.ts.
   */
  writerSaturation: WriterSaturation;
  /**
   * A resident process that nothing can move was found (stuck-detector.ts): reported once, until
   * it moves, finishes or leaves memory. `tasks`: its task table, one line per task.
   */
  stuck: { pid: string; mid: string; since: number; tasks: string[] };
  /** A process reported stuck is no longer: it moved again, finished, or left this engine's memory. */
  unstuck: { pid: string; mid: string; since: number; reason: 'moved' | 'finished' | 'gone' };
}

type Listener<T> = (payload: T) => void;

export class TypedEmitter<E> {
  private readonly listeners = new Map<keyof E, Set<Listener<never>>>();

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends keyof E>(event: K, payload: E[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const l of set) (l as Listener<E[K]>)(payload);
  }
}
