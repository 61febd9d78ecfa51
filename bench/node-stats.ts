/**
 * `npx tsx bench/node-stats.ts`: the heatmap of a model's page (`insights.nodeStats`,
 * server/store/sql/model-node-stats.ts) through the real HTTP API on RUNS runs of one model
 * (BENCH_NODE_STATS_RUNS, default 10,000), on SQLite and PostgreSQL. Two runs of a three-step
 * model are made by the engine — one finished, one waiting at its first act —, then their rows
 * (the procs row and its 7 tasks) are copied under new pids, one started every 8 s back from now
 * (10,000 runs span about 22 hours): every tenth waits, every twentieth of the others failed, the
 * time spent at the waiting act varies from 0 to 9.9 s. Reported: the latency of `nodeStats` over
 * the last day (every run), the last hour (about 450 runs) and the last minute, median and p99 of
 * CALLS calls, and the figures of the act node over the day.
 */
import type { StoreBackend } from '../server/store/open-store.ts';
import type { ProcRow, TaskRow } from '../server/store/contract/types.ts';
import { heatModel } from '../test/helpers/heat-model.ts';
import { startTestServer } from '../test/helpers/server.ts';
import { callLatency, printRows, rowsOnSqlBackends } from './durable/common.ts';

const RUNS = Number(process.env.BENCH_NODE_STATS_RUNS ?? 10_000);
const CALLS = Number(process.env.BENCH_NODE_STATS_CALLS ?? 20);
const PER_BATCH = 250;
const EVERY_MS = 8000;

const MODEL = heatModel(
  'heat',
  `  - id: s3
    acts:
      - { id: mark, uses: acts.transform.set, params: { b: 2 } }
`,
);

/** The rows of run `n`: a copy of the waiting or the finished template, its times set from `now`. */
function copyOf(n: number, now: number, done: { proc: ProcRow; tasks: TaskRow[] }, open: { proc: ProcRow; tasks: TaskRow[] }): { proc: ProcRow; tasks: TaskRow[] } {
  const waiting = n % 10 === 0;
  const failed = !waiting && n % 20 === 5;
  const template = waiting ? open : done;
  const pid = `run-${n}`;
  const start = now - n * EVERY_MS - 10_000;
  const spent = (n % 100) * 100;
  const end = waiting ? 0 : start + spent;
  const tasks = template.tasks.map((task) => {
    const atAsk = ['$', 's1', 'ask'].includes((task.node_data as { id: string }).id) || task.tid === '$';
    const open = task.end_time === 0;
    const state = failed && !['set', 'mark', 's2', 's3'].includes((task.node_data as { id: string }).id) ? 'error' : task.state;
    return { ...task, id: `${pid}:${task.tid}`, pid, state, start_time: start, end_time: open ? 0 : atAsk ? end : start + spent };
  });
  return { proc: { ...template.proc, id: pid, start_key: null, start_time: start, end_time: end, timestamp: start, state: waiting ? template.proc.state : failed ? 'error' : 'completed' }, tasks };
}

async function run(backend: StoreBackend): Promise<string[]> {
  const t = await startTestServer({ backend });
  try {
    await t.engine.models.deploy(MODEL);
    const api = t.as('operator');
    const finished = (await api.processes.start.mutate({ mid: 'heat' })).pid;
    const waiting = (await api.processes.start.mutate({ mid: 'heat' })).pid;
    await t.engine.idle();
    const ask = (await t.engine.tasks.list(finished)).find((task) => task.nid === 'ask')!;
    await t.engine.act.complete(finished, ask.tid);
    await t.engine.idle();
    const rowsOf = async (pid: string) => ({ proc: (await t.store.procs.find(pid))!, tasks: await t.store.queries.tasksOf([pid]) });
    const done = await rowsOf(finished);
    const open = await rowsOf(waiting);
    const now = Date.now();
    for (let i = 0; i < RUNS; i += PER_BATCH) {
      await t.store.batch(async (tx) => {
        for (let n = i; n < Math.min(RUNS, i + PER_BATCH); n++) {
          const copy = copyOf(n, now, done, open);
          await tx.procs.upsert(copy.proc);
          for (const task of copy.tasks) await tx.tasks.upsert(task);
        }
      });
    }
    const viewer = t.as('viewer');
    const stats = (ms: number) => () => viewer.insights.nodeStats.query({ mid: 'heat', from: Date.now() - ms, to: Date.now() });
    const timed = async (ms: number) => {
      const { p50, p99 } = await callLatency(stats(ms), CALLS);
      return `${p50.toFixed(1)} / ${p99.toFixed(1)}`;
    };
    const day = await stats(86_400_000)();
    const act = day.stats.find((s) => s.nid === 'ask')!;
    const figures = `now ${act.now}, passed ${act.passed}, errors ${act.errors}, p50 ${act.p50} ms, p95 ${act.p95} ms`;
    return [backend, String(RUNS + 2), String(done.tasks.length), await timed(86_400_000), await timed(3_600_000), await timed(60_000), figures];
  } finally {
    await t.close();
  }
}

async function main(): Promise<void> {
  const rows = await rowsOnSqlBackends(run);
  printRows(`insights.nodeStats on ${RUNS + 2} runs of one model: p50 / p99 ms, ${CALLS} calls each`, ['backend', 'runs', 'tasks a run', 'last day', 'last hour', 'last minute', 'act node, last day'], rows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
