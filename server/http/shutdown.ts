/**
 * Graceful shutdown: the first SIGTERM or SIGINT runs `stop` once (stop accepting, close
 * sockets, close the engine, which drains its queues and flushes its writes) and exits 0; a
 * failure exits 1; a second signal while stopping exits at once with 130.
 * State: running → stopping → exited.
 */
import type { Logger } from 'pino';

export function onShutdown(stop: () => Promise<void>, log: Logger, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal while stopping: exiting now');
      process.exit(130);
    }
    stopping = true;
    log.info({ signal }, 'stopping');
    stop().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err: err instanceof Error ? err.message : String(err) }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, handler);
}
