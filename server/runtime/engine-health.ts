/**
 * The engine's health and runtime figures (spec 5.10, 5.14) as the health API, the socket feed,
 * /metrics and benchmarks read them (loops, lanes, store writer, stuck processes, recovery, the
 * schedule timer), and
 * the wiring of the store writer's saturation bound to the typed event map. Reads only: the state lives in the lanes, the writer, the loop
 * guards and the stuck-process detector.
 */
import type { Runtime } from './runtime-types.ts';
import type { LaneStats } from './lanes.ts';
import type { LoopHealth } from './loop-guard.ts';
import type { ScheduleTimerHealth } from './schedule-timer.ts';
import type { WriterSaturation } from './store-writer.ts';
import type { StuckDetector, StuckHealth } from './stuck-detector.ts';

export interface WriterHealth {
  /** Writes queued or being written. */
  depth: number;
  highWatermark: number;
  /** New starts and client actions are refused (`engine.busy`) until the depth drained to cap / 2. */
  saturated: boolean;
  cap: number;
}

/**
 * Recovery at boot: `recovering` until every unfinished process it takes (`total`, as known so
 * far) was loaded (`loaded`) and its work dispatched again; `failed` processes ended in error;
 * `error` when recovery itself failed (the engine is then not ready).
 */
export interface RecoveryHealth {
  recovering: boolean;
  loaded: number;
  total: number;
  failed: number;
  error?: string;
}

export interface EngineHealth {
  loops: LoopHealth[];
  lanes: LaneStats;
  writer: WriterHealth;
  /** Processes of this instance that nothing can move (as of the last tick). */
  stuck: StuckHealth;
  recovery: RecoveryHealth;
  /** The schedule timer: when it wakes next (schedule-timer.ts). */
  schedules: ScheduleTimerHealth;
}

export interface EngineStats {
  queueDepth: number;
  lanes: LaneStats;
  writerDepth: number;
  writerHighWater: number;
  writerSaturated: boolean;
  processes: number;
  /** Stuck processes now, and reported since this engine started. */
  stuckProcesses: number;
  stuckDetected: number;
}

export function writerHealth(rt: Runtime): WriterHealth {
  const { writer } = rt;
  return { depth: writer.depth, highWatermark: writer.highWater, saturated: writer.saturated, cap: writer.cap };
}

export function engineHealth(rt: Runtime, loops: LoopHealth[], stuck: StuckDetector, recovery: RecoveryHealth, schedules: ScheduleTimerHealth): EngineHealth {
  return { loops, lanes: rt.jobs.queue.stats(), writer: writerHealth(rt), stuck: stuck.current(), recovery: { ...recovery }, schedules };
}

export function engineStats(rt: Runtime, stuck: StuckDetector): EngineStats {
  return {
    queueDepth: rt.jobs.queue.depth,
    lanes: rt.jobs.queue.stats(),
    writerDepth: rt.writer.depth,
    writerHighWater: rt.writer.highWater,
    writerSaturated: rt.writer.saturated,
    processes: rt.procs.size,
    stuckProcesses: stuck.current().count,
    stuckDetected: stuck.detected,
  };
}

/** Bounds the store writer at `cap`; each change of its saturation is an event (`writerSaturation`). */
export function boundWriter(rt: Runtime, cap: number): void {
  rt.writer.limit(cap, (state: WriterSaturation) => rt.events.emit('writerSaturation', state));
}
