/** The engine options a runtime configuration stands for (shared by `npm start` and `acts serve`). */
import { availableParallelism } from 'node:os';
import type { EngineOptions } from './engine.ts';
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
    // one per lane, at most one per core: more would only take the CPU from each other
    codeWorkers: config.code_workers ?? Math.min(config.scheduler_workers, availableParallelism()),
    stepBudget: config.step_budget,
    incidents: config.incidents,
    valueCapBytes: config.value_cap_bytes,
    sweepAfterSecs: config.sweep_after_secs,
    workdirRoot: config.workdir_root,
    http: { allow: config.http_allow, deny: config.http_deny, denyPrivate: config.http_deny_private },
    shell: { enabled: config.shell_enable, root: config.shell_root },
    state: { redisUrl: config.state_redis_url, redisPrefix: config.state_redis_prefix },
    tracing: tracingFrom(config),
  };
}

/** Where spans go: the traces endpoint, else the OTLP endpoint's `/v1/traces`; none when unset or disabled. */
export function tracingFrom(config: RuntimeConfig): EngineOptions['tracing'] {
  if (config.otel_disabled) return undefined;
  const endpoint = config.otlp_traces_endpoint ?? (config.otlp_endpoint ? `${config.otlp_endpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  return endpoint ? { endpoint, serviceName: config.otel_service_name } : undefined;
}
