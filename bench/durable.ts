/**
 * Durable-store figures of `npm run bench` (after the in-memory ones), for SQLite and PostgreSQL
 * with the in-memory store as the baseline measured in the same run:
 *   1-3. throughput, start → complete latency and store-writer batch size (bench/durable/throughput.ts)
 *   4.   RSS with parked processes (bench/durable/parked.ts)
 *   5.   recovery time after a SIGKILL with processes in flight (bench/durable/recovery.ts)
 * Sizes can be changed through the environment (defaults in brackets): BENCH_DURABLE=off skips
 * everything, BENCH_SECS [2.5] per throughput figure, BENCH_PARKED [10000], BENCH_INFLIGHT_SQLITE
 * [2000,10000], BENCH_INFLIGHT_PG [2000] (10,000 on PostgreSQL takes about 4 minutes to set up).
 */
import { performance } from 'node:perf_hooks';
import type { StoreBackend } from '../server/store/open-store.ts';
import { BACKENDS, ensurePostgres, mb, openBenchStore, printRows } from './durable/common.ts';
import { measureParked, type ParkedFigure } from './durable/parked.ts';
import { LEASE_MS, measureRecovery, type RecoveryRun } from './durable/recovery.ts';
import { measureThroughput, type ThroughputFigure } from './durable/throughput.ts';

const CLIENTS = [1, 8, 64] as const;
const SECS = Number(process.env.BENCH_SECS ?? 2.5);
const PARKED = Number(process.env.BENCH_PARKED ?? 10_000);
const sizes = (value: string | undefined, fallback: string) => (value ?? fallback).split(',').map(Number).filter((n) => n > 0);
const IN_FLIGHT: Array<[StoreBackend, number[]]> = [
  ['sqlite', sizes(process.env.BENCH_INFLIGHT_SQLITE, '2000,10000')],
  ['postgresql', sizes(process.env.BENCH_INFLIGHT_PG, '2000')],
];

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

async function throughput(): Promise<Array<ThroughputFigure & { backend: StoreBackend }>> {
  const all: Array<ThroughputFigure & { backend: StoreBackend }> = [];
  for (const backend of BACKENDS) {
    const { db, store } = await openBenchStore(backend);
    try {
      for (const figure of await measureThroughput(store, CLIENTS, SECS)) all.push({ backend, ...figure });
    } finally {
      await db.drop(); // the engine closed the store
    }
  }
  return all;
}

export async function runDurable(): Promise<void> {
  if (process.env.BENCH_DURABLE === 'off') return;
  const t0 = performance.now();
  await ensurePostgres();
  console.log(`\nacts-studio durable-store benchmark (memory = baseline; ${SECS} s per throughput figure)`);

  const tp = await throughput();
  printRows(
    '1. Throughput: set → code → irq completed by the client (each client: start, wait for the irq, complete, wait for the end)',
    ['store', 'clients', 'processes', 'procs/s', 'acts/s', 'p50 ms', 'p99 ms', 'dup acts'],
    tp.map((f) => [f.backend, f.clients, f.processes, f1(f.procsPerSec), f1(f.actsPerSec), f1(f.p50Ms), f1(f.p99Ms), f.duplicateActs]),
  );
  for (const f of tp.filter((x) => x.duplicateActs > 0)) {
    console.log(`WARNING ${f.backend}, ${f.clients} clients: ${f.duplicateActs} acts completed a second time (an action applied twice; see bench/durable/throughput.ts)`);
  }
  printRows(
    '2. Latency start → completed at 8 concurrent clients',
    ['store', 'p50 ms', 'p99 ms'],
    tp.filter((f) => f.clients === 8).map((f) => [f.backend, f1(f.p50Ms), f1(f.p99Ms)]),
  );
  printRows(
    '3. Store writer: one transaction per batch (rows = writes requested inside it; busy = share of wall time inside transactions)',
    ['store', 'clients', 'transactions', 'rows/tx', 'tx/process', 'ms/tx', 'writer busy', 'writer queue max'],
    tp.map((f) => [
      f.backend,
      f.clients,
      f.batches,
      f2(f.rowsPerBatch),
      f2(f.batches / Math.max(1, f.processes)),
      f2(f.batchMs),
      `${Math.round(f.writerBusy * 100)}%`,
      f.writerQueueMax,
    ]),
  );

  const parked: ParkedFigure[] = [];
  for (const backend of BACKENDS) parked.push(await measureParked(backend, PARKED));
  printRows(
    `4. ${PARKED.toLocaleString('en')} parked processes (cacheCap 1, one irq process holds the slot; 16 clients start them; memory after a GC)`,
    ['store', 'parked', 'starts s', 'starts/s', 'RSS before MB', 'RSS after MB', 'Δ RSS MB', 'heap before MB', 'heap after MB'],
    parked.map((f) => [f.backend, f.parked, f1(f.startSecs), f1(f.startsPerSec), mb(f.rssBefore), mb(f.rssAfter), mb(f.rssAfter - f.rssBefore), mb(f.heapBefore), mb(f.heapAfter)]),
  );

  const recovery: RecoveryRun[] = [];
  for (const [backend, sizes] of IN_FLIGHT) if (sizes.length) recovery.push(await measureRecovery(backend, sizes));
  printRows(
    `5. Recovery after SIGKILL with N processes waiting on an irq: a new host on the same database, started once the killed instance's lease (${LEASE_MS / 1000} s) lapsed`,
    ['store', 'in flight', 'setup (added) s', 'ready, empty db s', 'ready after kill s', 'Engine.create s', 'all resident s', 'recovered', 'ms per 1,000', 'sample completed'],
    recovery.flatMap((run) =>
      run.figures.map((f) => [
        f.backend,
        f.inFlight,
        `${f1(f.setupSecs)} (${f.added})`,
        f2(f.emptyReady.wallMs / 1000),
        f2(f.ready.wallMs / 1000),
        f2(f.ready.createMs / 1000),
        f2(f.allResidentMs / 1000),
        f.ready.resident,
        Math.round(((f.ready.createMs - f.emptyReady.createMs) / f.inFlight) * 1000),
        `${run.sampleCompleted}/${run.sample}`,
      ]),
    ),
  );
  console.log(`\ndurable benchmark took ${f1((performance.now() - t0) / 1000)} s`);
}
