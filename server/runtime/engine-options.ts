/** The engine options a runtime configuration stands for (shared by `npm start` and `acts serve`). */
import type { EngineOptions } from '../engine/engine.ts';
import type { RuntimeConfig } from './config.ts';

/** What `config` sets of the engine's options; the caller adds the store, the logger and the rest. */
export function engineOptionsFrom(config: RuntimeConfig): EngineOptions {
  return {
    tickIntervalSecs: config.tick_interval_secs,
    maxMessageRetryTimes: config.max_message_retry_times,
    cacheCap: config.cache_cap,
    schedulerWorkers: config.scheduler_workers,
    schedulerQueueCap: config.scheduler_queue_cap,
    storeWriterCap: config.store_writer_cap,
    codeWorkers: config.code_workers ?? config.scheduler_workers,
    stepBudget: config.step_budget,
    valueCapBytes: config.value_cap_bytes,
    sweepAfterSecs: config.sweep_after_secs,
    workdirRoot: config.workdir_root,
  };
}
