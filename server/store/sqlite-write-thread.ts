/**
 * The SQLite store writer's batches off the engine's thread (issue 12). better-sqlite3 runs every
 * statement synchronously on the thread that calls it, so the engine's event loop stood still
 * while SQLite inserted the rows of each batch — about half of the engine thread's time on
 * bench:peers. A worker thread with its own connection to the file (sqlite-write-worker.mjs) now
 * runs them: the engine thread turns rows into statements and parameters, hands them over, and
 * goes on with other work until the worker answered. The worker takes the batches in the order
 * they were handed over, and those waiting when it gets to them commit together (when that
 * commit fails, each is written again on its own, so a batch that fails leaves nothing behind,
 * alone): batches commit in the order they were handed over, so several may be handed over
 * before the first is written (Store.pipelinedWrites).
 * What a commit survives is unchanged (WAL, `synchronous = NORMAL`: a process kill, not a power
 * loss). A write on the store's own connection waits until the thread is idle (`idle()`), so the
 * two connections never wait for each other's write lock on the engine's thread.
 *
 * States: running (idle, or batches waiting) → stopped (`stop()`: the connection closed) or dead
 * (the worker failed: every waiting batch fails, and `alive` turns false so the store writes on
 * its own connection again).
 */
import { Worker } from 'node:worker_threads';
import { ActError } from '../engine/errors.ts';
import { WAL_BOUND_PAGES } from './sqlite-checkpointer.ts';

/** One statement: its SQL text and parameters. */
export type SqlStatement = [sql: string, params: unknown[]];

interface Reply {
  id: number;
  /** Statements of the commit that wrote the batch, counted on its group's first batch (0 on the others, and for a batch that failed). */
  ran: number;
  /** 1 for the first batch of a group (its COMMIT), else 0. */
  commits: number;
  error?: string;
}

/**
 * Statements the write threads of this process ran, and the batches they wrote in the commit of
 * another (bench:peers counts them with the others).
 */
let statementsRun = 0;
let batchesGrouped = 0;
export const writeThreadStatements = (): number => statementsRun;
export const writeThreadGroupedBatches = (): number => batchesGrouped;

export class SqliteWriteThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private nextId = 1;
  private stopping: Promise<void> | undefined;
  private dead = false;
  private idleWaiters: Array<() => void> = [];

  constructor(file: string, busyTimeoutMs: number) {
    this.worker = new Worker(new URL('./sqlite-write-worker.mjs', import.meta.url), { workerData: { file, busyTimeoutMs, walBoundPages: WAL_BOUND_PAGES } });
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.wentIdle();
      statementsRun += reply.ran;
      if (reply.error === undefined) {
        // a batch that failed was not written in another's commit either
        if (reply.commits === 0) batchesGrouped++;
        waiter.resolve();
      } else waiter.reject(new ActError('internal', `the SQLite write failed: ${reply.error}`));
    });
    this.worker.on('error', (err) => this.fail(`the SQLite write thread failed: ${err.message}`));
    this.worker.once('exit', () => this.fail('the SQLite write thread stopped'));
    // the process may end while the thread is idle, not while a batch waits for it
    this.worker.unref();
  }

  /** Whether batches can go to the thread (it has not failed or stopped). */
  get alive(): boolean {
    return !this.dead && this.stopping === undefined;
  }

  /** Runs `statements` atomically on the thread's connection (alone or with the batches waiting beside it); rejects with its error (rolled back). */
  run(statements: SqlStatement[]): Promise<void> {
    if (!this.alive) return Promise.reject(new ActError('internal', 'the SQLite write thread is not running'));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ id, statements });
    });
  }

  /** Resolves once no batch handed over is waiting to be written. */
  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wentIdle(): void {
    this.worker.unref();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Closes the thread's connection once the batches handed over are written; resolves when the thread ended. */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      if (this.dead) return resolve();
      this.worker.once('exit', () => resolve());
      this.worker.ref();
      this.worker.postMessage('stop');
    });
    return this.stopping;
  }

  private fail(message: string): void {
    this.dead = true;
    for (const waiter of this.waiting.values()) waiter.reject(new ActError('internal', message));
    this.waiting.clear();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
