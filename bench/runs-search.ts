/**
 * `npx tsx bench/runs-search.ts`: the runs list's search (`processes.list` `search`,
 * server/api/runs-search.ts) through the real HTTP API on RUNS runs (BENCH_SEARCH_RUNS, default
 * 10,000), on SQLite and PostgreSQL. One process of the approval-chain example is started through
 * the engine; its procs row (with its model source) is copied under new pids with other inputs and
 * business keys. Reported: the latency of the first page (`limit: 50`, newest first) without a
 * search, and searching a run id prefix, a business key, an input value one run holds and a term
 * no run holds (the worst case: the whole table is read), median and p99 of CALLS calls.
 */
import { readFile } from 'node:fs/promises';
import type { StoreBackend } from '../server/store/open-store.ts';
import { inputsText } from '../server/runtime/inputs-text.ts';
import { startTestServer } from '../test/helpers/server.ts';
import { callLatency, printRows, rowsOnSqlBackends } from './durable/common.ts';

const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 10_000);
const CALLS = Number(process.env.BENCH_SEARCH_CALLS ?? 30);
const PER_BATCH = 500;

/** `p50 / p99 (how many runs the search counted)`. */
async function latency(call: () => Promise<{ count: number }>): Promise<string> {
  const { count } = await call();
  const { p50, p99 } = await callLatency(call, CALLS);
  return `${p50.toFixed(1)} / ${p99.toFixed(1)} (${count})`;
}

async function run(backend: StoreBackend): Promise<string[]> {
  const t = await startTestServer({ backend });
  try {
    const model = await t.engine.models.deploy(await readFile(new URL('../examples/approval-chain.yml', import.meta.url), 'utf8'));
    const { pid } = await t.engine.procs.start(model.id, { amount: 100 });
    await t.engine.idle();
    const proc = (await t.store.procs.find(pid))!;
    for (let i = 0; i < RUNS; i += PER_BATCH) {
      await t.store.batch(async (tx) => {
        for (let n = i; n < Math.min(RUNS, i + PER_BATCH); n++) {
          const inputs = { customer: `customer ${n}`, amount: n, note: 'please approve by friday' };
          await tx.procs.upsert({ ...proc, id: `run-${n}`, start_key: `order-${n}`, inputs_text: inputsText(inputs), timestamp: proc.timestamp + n, start_time: proc.start_time + n });
        }
      });
    }
    const api = t.as('viewer');
    const list = (search?: string) => () => api.processes.list.query({ limit: 50, ...(search ? { search } : {}) });
    return [backend, String(RUNS + 1), String(proc.model.length), await latency(list()), await latency(list('run-42')), await latency(list('order-4711')), await latency(list('customer 4711')), await latency(list('nobody at all'))];
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  const rows = await rowsOnSqlBackends(run);
  printRows(`processes.list, limit 50, on ${RUNS + 1} runs: p50 / p99 ms (runs counted), ${CALLS} calls each`, ['backend', 'runs', 'model chars', 'no search', 'id prefix', 'business key', 'input value', 'no match'], rows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
