/**
 * `npm start`: one Node process with the engine runtime, the tRPC API at `/api/trpc` and
 * socket.io at `/socket.io` on one port. Environment: PORT (3000), HOST (127.0.0.1),
 * DATABASE_URL (file:./data/acts.db) and the other settings of server/runtime/config.ts,
 * ACTS_SECURE_COOKIE=1 behind https, ACTS_TRUST_PROXY=1 behind a reverse proxy, LOG_LEVEL.
 * On PostgreSQL the socket.io PostgreSQL adapter connects the instances.
 */
import { Engine } from './engine/engine.ts';
import { loadConfig } from './runtime/config.ts';
import { openStore, redactUrl } from './store/open-store.ts';
import { createLogger, engineLogger } from './http/logger.ts';
import { loggingAuditLog, unwiredAuth } from './http/placeholders.ts';
import { createServer } from './http/server.ts';
import { onShutdown } from './http/shutdown.ts';

async function main(): Promise<void> {
  const env = process.env;
  const log = createLogger();
  const config = loadConfig();
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
    logger: engineLogger(log),
  });
  const server = await createServer({
    engine,
    store,
    auth: unwiredAuth,
    audit: loggingAuditLog(log),
    log,
    secureCookie: env.ACTS_SECURE_COOKIE === '1',
    trustProxy: env.ACTS_TRUST_PROXY === '1',
    scaleOutUrl: store.backend === 'postgresql' ? config.store : undefined,
  });
  const address = await server.listen(env.PORT ? Number(env.PORT) : 3000, env.HOST || '127.0.0.1');
  log.info({ url: `http://${address.address}:${address.port}`, store: redactUrl(config.store), backend: store.backend, instance: engine.instanceId }, 'serving');
  onShutdown(async () => {
    await server.close();
    await engine.close();
  }, log);
}

main().catch((err: unknown) => {
  console.error(JSON.stringify({ level: 'fatal', msg: 'start failed', err: err instanceof Error ? err.message : String(err) }));
  process.exit(1);
});
