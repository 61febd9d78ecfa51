/**
 * Drives bench/durable/host.ts as a child process: wait for its ready line (timed from the spawn),
 * send commands and await their replies, kill it with SIGKILL or stop it cleanly.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const HOST = fileURLToPath(new URL('./host.ts', import.meta.url));

export interface Ready {
  /** Spawn → ready line, ms (process start, module loading, store open, Engine.create). */
  wallMs: number;
  /** Engine.create alone (publishing packages and recovery), ms, measured in the host. */
  createMs: number;
  /** Processes resident right after Engine.create (on a restart: the ones recovered). */
  resident: number;
  rss: number;
  heapUsed: number;
}

export interface HostOptions {
  cacheCap?: number;
  queueCap?: number;
  /** Timer ticks every this many seconds (default: no timer). */
  tickSecs?: number;
  leaseMs?: number;
}

export class BenchHost {
  readonly ready: Promise<Ready>;
  readonly exited: Promise<unknown>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private stderr = '';

  constructor(store: string, options: HostOptions = {}) {
    const t = performance.now();
    this.child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', HOST], {
      env: {
        ...process.env,
        ACTS_STORE: store,
        ACTS_CACHE_CAP: String(options.cacheCap ?? 1024),
        ACTS_QUEUE_CAP: String(options.queueCap ?? 4096),
        ACTS_TICK_SECS: String(options.tickSecs ?? 0),
        ACTS_LEASE_MS: options.leaseMs ? String(options.leaseMs) : '',
      },
      stdio: 'pipe',
    });
    this.child.stderr.on('data', (d) => (this.stderr += String(d)));
    let onReady!: (r: Ready) => void;
    let notReady!: (e: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      onReady = resolve;
      notReady = reject;
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const data = JSON.parse(line) as { ready?: boolean; id?: number; ok?: boolean; result?: unknown; error?: string } & Omit<Ready, 'wallMs'>;
      if (data.ready) return onReady({ ...data, wallMs: performance.now() - t });
      const w = this.waiting.get(data.id as number);
      this.waiting.delete(data.id as number);
      if (data.ok) w?.resolve(data.result);
      else w?.reject(new Error(data.error));
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        const err = new Error(`bench host exited (${signal ?? code})${this.stderr ? `: ${this.stderr.slice(-2000)}` : ''}`);
        notReady(err);
        for (const w of this.waiting.values()) w.reject(err);
        this.waiting.clear();
        resolve({ code, signal });
      });
    });
  }

  send<T = unknown>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
    });
  }

  kill(): Promise<unknown> {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  async stop(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}
