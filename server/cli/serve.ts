/**
 * `acts serve`: the headless engine on a durable store. It continues the unfinished processes it
 * finds, runs the timers, and stops cleanly on SIGTERM/SIGINT (pending writes are flushed).
 */
import { Engine } from '../engine/engine.ts';
import { consoleLogger } from '../engine/events.ts';
import { loadConfig } from '../runtime/config.ts';
import { openStore, redactUrl } from '../store/open-store.ts';
import { EXIT } from './errors.ts';

export interface ServeOptions {
  store?: string;
  config?: string;
}

export async function serveCommand(options: ServeOptions, print: (line: string) => void, stop?: Promise<unknown>): Promise<number> {
  const config = loadConfig({ file: options.config, overrides: { store: options.store } });
  const store = await openStore(config.store);
  const engine = await Engine.create({
    store,
    tickIntervalSecs: config.tick_interval_secs,
    maxMessageRetryTimes: config.max_message_retry_times,
    cacheCap: config.cache_cap,
    schedulerWorkers: config.scheduler_workers,
    schedulerQueueCap: config.scheduler_queue_cap,
    sweepAfterSecs: config.sweep_after_secs,
    workdirRoot: config.workdir_root,
    logger: consoleLogger,
  });
  const stats = engine.stats();
  print(JSON.stringify({ event: 'serving', store: redactUrl(config.store), backend: store.backend, processes: stats.processes }));
  // The engine's own timers do not hold the process open; a server must stay up until told to stop.
  const keepAlive = setInterval(() => {}, 1 << 30);
  await (stop ??
    new Promise((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    }));
  clearInterval(keepAlive);
  await engine.close();
  print(JSON.stringify({ event: 'stopped' }));
  return EXIT.complete;
}
