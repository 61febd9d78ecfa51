/**
 * `npm run bench:migrate`: validating and migrating RUNS running processes (BENCH_MIGRATE_RUNS,
 * default 10,000) of one model to its next version through the real HTTP API, on SQLite and
 * PostgreSQL (issue 16). The processes are started for real (8 producers) and wait at an
 * interrupt in their first step; version 2 renames that step and adds one after it. Reported: the
 * time of `migrations.check` over every process (all ready) and of the bulk migration
 * (`migrations.start` until `bulk.status` says done, every run migrated), per process, and the
 * CPU time of this one Node process (server, engine and API client together) per migrated process.
 */
import type { StoreBackend } from '../server/store/open-store.ts';
import { startTestServer } from '../test/helpers/server.ts';
import { printRows, rowsOnSqlBackends } from './durable/common.ts';

const RUNS = Number(process.env.BENCH_MIGRATE_RUNS ?? 10_000);
const PRODUCERS = 8;

const V1 = `id: mig
inputs: { amount: 10 }
steps:
  - { id: review, acts: [ { id: approve, uses: acts.core.irq, key: approve, params: { title: 'Approve {{ amount }}' } } ] }
  - { id: pay, acts: [ { uses: acts.core.msg, key: pay } ] }
`;
const V2 = `id: mig
inputs: { amount: 10 }
steps:
  - { id: check, acts: [ { id: approve, uses: acts.core.irq, key: approve, params: { title: 'Approve {{ amount }}' } } ] }
  - { id: notify, acts: [ { uses: acts.core.msg, key: notify } ] }
  - { id: pay, acts: [ { uses: acts.core.msg, key: pay } ] }
`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perRun = (ms: number) => `${((ms / RUNS) * 1000).toFixed(0)} µs`;

async function run(backend: StoreBackend): Promise<string[]> {
  const t = await startTestServer({ backend, engine: { cacheCap: RUNS + 100 } });
  try {
    const designer = t.as('designer');
    await designer.models.deploy.mutate({ source: V1 });
    let started = 0;
    const producer = async () => {
      while (started < RUNS) {
        started++;
        await t.engine.procs.start('mig', { amount: started });
      }
    };
    await Promise.all(Array.from({ length: PRODUCERS }, producer));
    await t.engine.idle();
    await designer.models.deploy.mutate({ source: V2 });
    const plan = { mid: 'mig', from: 1, to: 2, map: { review: 'check' } };

    const checkStart = performance.now();
    const check = await designer.migrations.check.mutate(plan);
    const checkMs = performance.now() - checkStart;
    if (check.ready !== RUNS) throw new Error(`expected ${RUNS} ready, got ${JSON.stringify({ ...check, blocked: check.blocked.slice(0, 3) })}`);

    const cpuBefore = process.cpuUsage();
    const migrateStart = performance.now();
    const { job } = await designer.migrations.start.mutate(plan);
    let status = await designer.bulk.status.query({ job });
    while (status.state !== 'done') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await designer.bulk.status.query({ job, resultsFrom: status.processed });
    }
    const migrateMs = performance.now() - migrateStart;
    const cpu = process.cpuUsage(cpuBefore);
    if (status.counts.done !== RUNS) throw new Error(`expected ${RUNS} migrated, got ${JSON.stringify(status.counts)}`);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return [backend, String(RUNS), seconds(checkMs), perRun(checkMs), seconds(migrateMs), perRun(migrateMs), `${(cpuMs / RUNS).toFixed(2)} ms`, String(status.busyRetries)];
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  const rows = await rowsOnSqlBackends(run);
  printRows(
    `validating and migrating ${RUNS} waiting processes (a renamed step, one added) through the API`,
    ['backend', 'processes', 'check', 'check / process', 'migrate', 'migrate / process', 'CPU / process (server and client)', 'busy retries'],
    rows,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
