/**
 * Drives bench/durable/host.ts as a child process: wait for its ready line (timed from the spawn),
 * send commands and await their replies, kill it with SIGKILL or stop it cleanly.
 */
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { JsonLineChild } from '../../test/helpers/json-line-child.ts';

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

export class BenchHost extends JsonLineChild {
  readonly ready: Promise<Ready>;

  constructor(store: string, options: HostOptions = {}) {
    const t = performance.now();
    let onReady!: (r: Ready) => void;
    const ready = new Promise<Ready>((resolve) => (onReady = resolve));
    super(
      HOST,
      {
        ACTS_STORE: store,
        ACTS_CACHE_CAP: String(options.cacheCap ?? 1024),
        ACTS_QUEUE_CAP: String(options.queueCap ?? 4096),
        ACTS_TICK_SECS: String(options.tickSecs ?? 0),
        ACTS_LEASE_MS: options.leaseMs ? String(options.leaseMs) : '',
      },
      (line) => {
        if (line.ready) onReady({ ...(line as unknown as Omit<Ready, 'wallMs'>), wallMs: performance.now() - t });
      },
      ['--expose-gc'],
    );
    // a host that dies before it is ready fails the wait instead of hanging it
    this.ready = Promise.race([ready, this.exited.then(() => Promise.reject(new Error(`bench host exited before it was ready: ${this.stderr.slice(-2000)}`)))]);
  }
}
