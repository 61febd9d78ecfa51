/**
 * Recovery after a kill. On one database, for each size N in increasing order: the host tops the
 * store up to N processes that each wait on an irq (all resident: cacheCap above N), is killed
 * with SIGKILL once everything is written, and a new host is started on the same database.
 *
 * Reported per N: spawn → ready of the new host (Engine.create recovers before it returns),
 * Engine.create alone, spawn → all N processes resident again, and the processes recovered. The
 * first host's ready time on the still empty database is the baseline (process start, module
 * loading, store open). The new host is started only once the killed one's instance lease
 * (LEASE_MS) lapsed, so the figures are the recovery work itself: on PostgreSQL, where several
 * instances share a database, a crashed instance's processes are taken over only after its lease
 * lapses, which adds up to one lease (the engine's default is 3 ticks) in production. At the end a
 * sample of recovered processes is completed, to check they really continue.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type { StoreBackend } from '../../server/store/open-store.ts';
import { createTestDatabase } from '../../test/helpers/databases.ts';
import { IRQ_YML } from './common.ts';
import { BenchHost, type HostOptions, type Ready } from './host-process.ts';

export const LEASE_MS = 2_000;
const SAMPLE = 20;

export interface RecoveryFigure {
  backend: StoreBackend;
  inFlight: number;
  /** Processes started for this size (the store already held the smaller sizes' ones). */
  added: number;
  /** Time the host took to bring the store up to N waiting processes (before the kill), s. */
  setupSecs: number;
  emptyReady: Ready;
  ready: Ready;
  /** Spawn → every process resident again, ms. */
  allResidentMs: number;
}

export interface RecoveryRun {
  figures: RecoveryFigure[];
  sampleCompleted: number;
  sample: number;
}

async function waitResident(host: BenchHost, n: number, spawnedAt: number): Promise<number> {
  for (;;) {
    if ((await host.send<number>('resident')) >= n) return performance.now() - spawnedAt;
    if (performance.now() - spawnedAt > 180_000) throw new Error(`only ${await host.send<number>('resident')} of ${n} processes came back within 180 s`);
    await sleep(50);
  }
}

export async function measureRecovery(backend: StoreBackend, sizes: number[], concurrency = 16): Promise<RecoveryRun> {
  const db = await createTestDatabase(backend);
  const largest = Math.max(...sizes);
  const sizing: HostOptions = { cacheCap: largest + 100, queueCap: Math.max(4096, 4 * largest), tickSecs: 1, leaseMs: LEASE_MS };
  const figures: RecoveryFigure[] = [];
  let host = new BenchHost(db.url, sizing);
  try {
    const emptyReady = await host.ready;
    await host.send('deploy', { source: IRQ_YML });
    let stored = 0;
    for (const n of [...sizes].sort((a, b) => a - b)) {
      const { idleMs } = await host.send<{ idleMs: number }>('startMany', { mid: 'wait', n: n - stored, concurrency, prefix: `p${n}-` });
      const before = stored;
      stored = n;
      const waiting = await host.send<number>('count', { state: 'running' });
      if (waiting !== n) throw new Error(`${backend}: expected ${n} waiting processes, the store holds ${waiting}`);
      await host.kill();
      await sleep(LEASE_MS + 500);

      const spawnedAt = performance.now();
      host = new BenchHost(db.url, sizing);
      const ready = await host.ready;
      const allResidentMs = await waitResident(host, n, spawnedAt);
      figures.push({ backend, inFlight: n, added: n - before, setupSecs: idleMs / 1000, emptyReady, ready, allResidentMs });
    }
    let sampleCompleted = 0;
    const first = Math.min(...sizes);
    for (let i = 0; i < SAMPLE; i++) {
      const state = await host.send<string>('completeIrq', { pid: `p${first}-${Math.floor((i * first) / SAMPLE)}` });
      if (state === 'completed') sampleCompleted++;
    }
    return { figures, sampleCompleted, sample: SAMPLE };
  } finally {
    await host.stop().catch(() => undefined);
    await db.drop();
  }
}
