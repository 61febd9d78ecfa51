/**
 * The runtime's typed event map — the one route by which the engine tells what happened: task
 * changes, messages and the process lifecycle (the socket bridge, the CLI, the simulation), and
 * the runtime's facts (full lanes, a saturated writer, degraded timer loops, leases and takeovers,
 * stuck processes) that the log (event-log.ts) and /metrics subscribe to. Stateless: listeners by
 * event name.
 *
 * Every listener runs synchronously where the fact happens, most of them inside the job of the
 * process concerned (in emission order). Facts are reported on transitions (into full, into
 * degraded …), never once per job, so a listener costs nothing on the hot path.
 */
import type { Message } from '../engine/messages.ts';
import type { Process } from '../engine/process.ts';
import type { WriterSaturation } from './store-writer.ts';
import type { Task } from '../engine/task.ts';

/** A process-level event: the process and the message its channels' process handlers get. */
export interface ProcessLifecycle {
  proc: Process;
  /** The root task's message (`on_start`, `on_complete`, `on_error` of channels get the same). */
  message: Message;
}

/** A lane and its fill when it turned full or drained (lanes.ts). */
export interface LaneFill {
  /** The lane's index (0 … scheduler_workers − 1). */
  lane: number;
  /** Jobs queued in the lane then. */
  size: number;
  /** Jobs the lane may hold (`scheduler_queue_cap / scheduler_workers`). */
  capacity: number;
}

/** A timer loop's health guard (loop-guard.ts) changed. */
export interface LoopChange {
  /** `message-retry` or `schedule-trigger`. */
  loop: string;
  /** Failed ticks in a row (when degraded: so far; when recovered: before the clean tick). */
  failures: number;
  /** Epoch ms (engine clock) of the tick that degraded the loop. */
  since: number;
}

export interface EngineEvents {
  /** Every task state change that was emitted. */
  task: { proc: Process; task: Task };
  /** A process's control changed (paused, resumed, breakpoints, an incident opened or resolved; engine/control.ts). In its job. */
  control: { proc: Process };
  /** Every message, before channels receive it. */
  message: Message;
  /** A process runs: its root task became ready (before channels' `on_start`). In its job. */
  started: ProcessLifecycle;
  /**
   * A process reached a terminal state (`proc.state`; `error` is channels' `on_error`, every other
   * state their `on_complete`), in the job that ended it, before channels hear it.
   */
  finished: ProcessLifecycle;
  /**
   * The store batch of job number `seq` (see `JobBatch.seq`) was written (`ok`) or failed: every
   * event emitted before that job's end is now in the store (or never will be). In `seq` order.
   */
  committed: { seq: number; pids: string[]; ok: boolean };
  /**
   * A lane refused an execution because it was full (the execution went to an outbox `exec`
   * record instead, executions.ts `schedule`). Reported once when the lane turns full, not per refused
   * execution: again only after it drained to half its capacity (`laneDrained`). `pid`: the
   * process whose execution was refused first.
   */
  laneFull: LaneFill & { pid: string };
  /** A lane reported full drained to half its capacity (its overflow went back into it). */
  laneDrained: LaneFill;
  /**
   * The store writer became saturated (its depth reached the cap: new starts and client actions
   * are refused) or drained to half the cap (accepted again). See store-writer.ts.
   */
  writerSaturation: WriterSaturation;
  /**
   * A timer loop failed `failures` ticks in a row and backs off (skips `backoff` ticks before the
   * next attempt; doubling up to the guard's limit). Once, until it recovers.
   */
  loopDegraded: LoopChange & { backoff: number; error: string };
  /** A degraded timer loop ran a clean tick again. */
  loopRecovered: LoopChange;
  /**
   * This instance found its own lease lapsed when renewing it (it hung, or lost the store, for
   * longer than the lease): others may have taken its processes over (see `processesLost`).
   * Shared stores only (a single-instance store has nobody to take over).
   */
  leaseLost: { instance: string; leaseUntil: number; renewedAt: number };
  /**
   * Processes another instance took over, found by the write fence (`fence`: writes of theirs
   * from this instance were dropped) or by the check after a lapsed lease (`lease`): they left
   * this instance's memory without a trace (if they were still there); their new owner goes on.
   */
  processesLost: { pids: string[]; foundBy: 'fence' | 'lease' };
  /**
   * This instance took processes over: unfinished rows that no live instance owned (an earlier
   * run of a single-instance store at boot, or an instance whose lease lapsed), claimed before a
   * slot fill loads them (recover.ts). One event per fill that claimed any.
   */
  processesClaimed: { pids: string[]; boot: boolean };
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
