/**
 * `acts serve`: the headless engine on a durable store. It continues the unfinished processes it
 * finds, runs the timers, and stops cleanly on SIGTERM/SIGINT (pending writes are flushed).
 */
import { Engine } from '../runtime/engine.ts';
import { consoleLogger } from '../engine/logger.ts';
import { loadConfig } from '../runtime/config.ts';
import { engineOptionsFrom } from '../runtime/engine-options.ts';
import { openStore, redactUrl } from '../store/open-store.ts';
import { EXIT } from './errors.ts';
import { openSecrets } from '../secrets/index.ts';

export interface ServeOptions {
  store?: string;
  config?: string;
}

export async function serveCommand(options: ServeOptions, print: (line: string) => void, stop?: Promise<unknown>): Promise<number> {
  const config = loadConfig({ file: options.config, overrides: { store: options.store } });
  const store = await openStore(config.store);
  const secrets = await openSecrets(store);
  const engine = await Engine.create({ ...engineOptionsFrom(config), store, logger: consoleLogger, secrets });
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
