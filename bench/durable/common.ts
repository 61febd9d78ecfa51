/**
 * Shared pieces of the durable-store benchmark: the workflows, fresh databases (from the test
 * helpers' migrated templates), a store-batch counter and a plain table printer.
 */
import { execSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { COLLECTION_NAMES } from '../../server/store/columns.ts';
import { openStore, type OpenedStore, type StoreBackend } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/contract/types.ts';
import { createTestDatabase, PG_ADMIN_URL, type TestDatabase } from '../../test/helpers/databases.ts';

/** set → code → irq (the irq is completed by the client). */
export const THREE_STEP_YML = `
id: three
inputs: { n: 1 }
steps:
  - { id: s1, acts: [ { uses: acts.transform.set, params: { a: 1 } } ] }
  - { id: s2, acts: [ { uses: acts.transform.code, params: 'return { b: a + n }' } ] }
  - { id: s3, acts: [ { uses: acts.core.irq, key: approve } ] }
`;

/** One irq and nothing else: a process that waits for its client. */
export const IRQ_YML = `
id: wait
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: hold } ] }
`;

export const BACKENDS: readonly StoreBackend[] = ['memory', 'sqlite', 'postgresql'];

/** Starts the local PostgreSQL cluster when it does not answer (as CI does). */
export async function ensurePostgres(): Promise<void> {
  const reachable = async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      return false;
    }
  };
  if (await reachable()) return;
  execSync('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start', { stdio: 'inherit' });
  if (!(await reachable())) throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL}`);
}

/** A fresh, migrated database of `backend`, opened. */
export async function openBenchStore(backend: StoreBackend): Promise<{ db: TestDatabase; store: OpenedStore }> {
  const db = await createTestDatabase(backend);
  return { db, store: await openStore(db.url) };
}

export interface BatchCounter {
  /** Store transactions (`batch` calls). */
  batches: number;
  /** Row writes (create / update / upsert / delete) requested inside them. */
  rows: number;
  /** Time spent inside `batch` calls, ms (the writer runs them one after another). */
  busyMs: number;
  reset(): void;
}

const WRITES = ['create', 'update', 'upsert', 'delete'] as const;

/**
 * Counts the store writer's transactions and the rows written in them by wrapping `store.batch`
 * (and `store.writeOnlyBatch`, where the store has it) and, inside each batch, the write methods of the transaction's collections. (Upserts of the same
 * id inside one batch are coalesced by the SQL store, so `rows` counts writes requested.)
 */
export function countBatches(store: Store): BatchCounter {
  const counter: BatchCounter = {
    batches: 0,
    rows: 0,
    busyMs: 0,
    reset() {
      counter.batches = 0;
      counter.rows = 0;
      counter.busyMs = 0;
    },
  };
  const batch = store.batch.bind(store);
  /** `target` seen through a proxy whose functions are bound once; `wrap` may replace them. */
  const bound = <T extends object>(target: T, wrap: (prop: PropertyKey, value: unknown) => unknown): T => {
    const seen = new Map<PropertyKey, unknown>();
    return new Proxy(target, {
      get(t, prop) {
        if (seen.has(prop)) return seen.get(prop);
        let value = Reflect.get(t, prop, t) as unknown;
        if (typeof value === 'function') value = (value as (...args: unknown[]) => unknown).bind(t);
        value = wrap(prop, value);
        seen.set(prop, value);
        return value;
      },
    });
  };
  const countWrites = (prop: PropertyKey, value: unknown): unknown => {
    if (typeof value !== 'function' || !(WRITES as readonly PropertyKey[]).includes(prop)) return value;
    const fn = value as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      counter.rows++;
      return fn(...args);
    };
  };
  // A proxy per batch store rather than patching `tx` (MemoryStore passes itself as `tx`); made
  // once per store object, so counting costs the measured run little.
  const wrappedStores = new WeakMap<Store, Store>();
  const countedFn = (fn: (tx: Store) => Promise<void>) => (tx: Store) => {
    let wrapped = wrappedStores.get(tx);
    if (!wrapped) {
      wrapped = bound(tx, (prop, value) => ((COLLECTION_NAMES as readonly PropertyKey[]).includes(prop) ? bound(value as object, countWrites) : value));
      wrappedStores.set(tx, wrapped);
    }
    return fn(wrapped);
  };
  const timed = <T>(done: Promise<T>, t: number): Promise<T> => done.finally(() => (counter.busyMs += performance.now() - t));
  // Store.writeOnlyBatch (the writer's batches) is counted itself; where it runs as a plain batch
  // (SQLite), that batch is not counted again (the writer runs one batch at a time)
  let inWriteOnly = 0;
  store.batch = (fn) => {
    if (inWriteOnly > 0) return batch(fn);
    counter.batches++;
    return timed(batch(countedFn(fn)), performance.now());
  };
  const writeOnly = store.writeOnlyBatch?.bind(store);
  if (writeOnly) {
    store.writeOnlyBatch = (fn, guard) => {
      counter.batches++;
      inWriteOnly++;
      const done = writeOnly(countedFn(fn), guard).finally(() => inWriteOnly--);
      return timed(done, performance.now());
    };
  }
  // PostgreSQL: the writer gathers each job's writes ahead (rows counted there) and writes them
  // with writeGathered (a batch); the store's getters are shadowed on the instance
  const { gatherWrites: gather, writeGathered } = store;
  if (gather && writeGathered) {
    const own = (name: 'gatherWrites' | 'writeGathered', value: unknown) => Object.defineProperty(store, name, { value, configurable: true });
    own('gatherWrites', (fn: (tx: Store) => Promise<void>) => gather.call(store, countedFn(fn)));
    own('writeGathered', (gathered: Parameters<typeof writeGathered>[0], guard?: Parameters<typeof writeGathered>[1]) => {
      counter.batches++;
      return timed(writeGathered.call(store, gathered, guard), performance.now());
    });
  }
  return counter;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** One table row from `run` on SQLite, then on PostgreSQL (started if it is down). */
export async function rowsOnSqlBackends(run: (backend: 'sqlite' | 'postgresql') => Promise<string[]>): Promise<string[][]> {
  await ensurePostgres();
  const rows: string[][] = [];
  // BENCH_BACKENDS=postgresql (comma separated) measures only those
  const only = process.env.BENCH_BACKENDS?.split(',');
  for (const backend of ['sqlite', 'postgresql'] as const) if (!only || only.includes(backend)) rows.push(await run(backend));
  return rows;
}

/** Median and p99 latency (ms) of `runs` sequential calls, after three warm-up calls. */
export async function callLatency(call: () => Promise<unknown>, runs: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 3; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

/** Prints a left-aligned table with a title. */
export function printRows(title: string, header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  console.log(`\n${title}`);
  for (const [i, row] of cells.entries()) {
    console.log(row.map((c, j) => c.padEnd(widths[j])).join('  ').trimEnd());
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}
