/**
 * WAL checkpoints off the engine's thread (issue 12). SQLite's automatic checkpoint runs inside the
 * COMMIT that pushes the WAL past `wal_autocheckpoint` pages, on the connection that commits — the
 * engine's, whose event loop then stands still while the checkpoint writes and syncs the database
 * file (measured: 0.4 ms a commit on average, single stalls of 100–470 ms, the p99 of a run).
 * Here a worker thread with its own connection checkpoints every `intervalMs` in PASSIVE mode,
 * which neither waits for nor blocks the writer; the engine's connection keeps an automatic
 * checkpoint only as a bound (`WAL_BOUND_PAGES`, ~64 MB), reached if the worker falls behind.
 * Durability is unchanged: a commit is in the WAL when it returns; a checkpoint only moves pages.
 *
 * States: running (the worker checkpoints on its interval) → stopping (`stop()`: one last
 * checkpoint, the connection closed) → stopped.
 */
import { Worker } from 'node:worker_threads';

/** The engine connection's own automatic checkpoint, a bound in case the worker falls behind. */
export const WAL_BOUND_PAGES = 16_384;

const DEFAULT_INTERVAL_MS = 100;

export class SqliteCheckpointer {
  private readonly worker: Worker;
  private stopping: Promise<void> | undefined;
  private exited = false;

  constructor(file: string, intervalMs = DEFAULT_INTERVAL_MS) {
    this.worker = new Worker(new URL('./sqlite-checkpoint-worker.mjs', import.meta.url), { workerData: { file, intervalMs } });
    // a worker that cannot open the file (it was removed) ends; the engine's bound still holds
    this.worker.on('error', () => undefined);
    this.worker.once('exit', () => (this.exited = true));
    this.worker.unref();
  }

  /** Stops the thread after a last checkpoint; resolves once its connection is closed. */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      const done = () => resolve();
      this.worker.once('exit', done);
      this.worker.once('message', () => void this.worker.terminate().then(done, done));
      this.worker.postMessage('stop');
    });
    return this.stopping;
  }
}
