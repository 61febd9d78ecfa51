/**
 * `npm run bench:inbox`: `inbox.list` through the real HTTP API with many open interrupt tasks,
 * on SQLite and PostgreSQL. One process waiting on an irq is started through the engine; its rows
 * (process, tasks, messages) are then copied under new pids (test/helpers/process-copies.ts)
 * until OPEN processes wait (BENCH_INBOX_OPEN, default 10,000), beside DONE finished ones (BENCH_INBOX_DONE, default 10,000: history the
 * queries must not scan). The bulk's tasks are assigned to the role `clerk`; FEW more wait for
 * `alice` alone. Reported: the latency of `inbox.list({ limit: 1 })` and of the first page
 * (`limit: 50`) for the admin (who sees every task), of alice's first page (an operator who sees
 * only her FEW tasks), median and p99 of RUNS calls, and how many tasks each list counted.
 */
import { performance } from 'node:perf_hooks';
import type { StoreBackend } from '../server/store/open-store.ts';
import { copyProcess, rowsOf } from '../test/helpers/process-copies.ts';
import { startTestServer, type TestServer } from '../test/helpers/server.ts';
import { callLatency, printRows, rowsOnSqlBackends } from './durable/common.ts';

const OPEN = Number(process.env.BENCH_INBOX_OPEN ?? 10_000);
const DONE = Number(process.env.BENCH_INBOX_DONE ?? 10_000);
const RUNS = Number(process.env.BENCH_INBOX_RUNS ?? 30);
const FEW = 5;

const BULK_YML = `
id: wait
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: hold, params: { roles: [clerk] } } ] }
`;

const FEW_YML = `
id: mine
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: mine, params: { assignees: [alice] } } ] }
`;

const latency = (call: () => Promise<unknown>) => callLatency(call, RUNS);

async function run(backend: StoreBackend): Promise<string[]> {
  const t: TestServer = await startTestServer({ backend, engine: { cacheCap: 10 } });
  try {
    const seeding = performance.now();
    await t.engine.models.deploy(BULK_YML);
    await t.engine.models.deploy(FEW_YML);
    const { pid } = await t.engine.procs.start('wait');
    await t.engine.idle();
    const sample = await rowsOf(t.store, pid);
    await copyProcess(t.store, sample, OPEN - 1, 'open-');
    await copyProcess(t.store, sample, DONE, 'done-', true);
    for (let i = 0; i < FEW; i++) await t.engine.procs.start('mine');
    await t.engine.idle();
    const seedSecs = (performance.now() - seeding) / 1000;
    const api = t.as('admin');
    const one = await latency(() => api.inbox.list.query({ limit: 1 }));
    const page = await latency(() => api.inbox.list.query({ limit: 50 }));
    const few = await latency(() => t.as('alice').inbox.list.query({ limit: 50 }));
    const { count } = await api.inbox.list.query({ limit: 1 });
    const mine = (await t.as('alice').inbox.list.query({ limit: 50 })).count;
    const ms = (n: number) => n.toFixed(1);
    return [backend, String(OPEN + FEW), String(DONE), String(count), ms(one.p50), ms(one.p99), ms(page.p50), ms(page.p99), String(mine), ms(few.p50), ms(few.p99), seedSecs.toFixed(1)];
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  const rows = await rowsOnSqlBackends(run);
  printRows(`inbox.list with ${OPEN} open tasks (${RUNS} calls each)`, ['backend', 'open', 'finished', 'listed', 'limit 1 p50 ms', 'p99', 'limit 50 p50 ms', 'p99', 'alice listed', 'alice 50 p50 ms', 'p99', 'seed s'], rows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
