/**
 * `npm run bench:workers` (issue 13 item 6): a remote worker's acts/s through the server. A real
 * server (test/helpers/server.ts: HTTP API, real auth, BENCH_WORKERS_BACKEND sqlite [default] or
 * postgresql) holds BENCH_WORKERS_ACTS [400] waiting acts of an external package (one-act runs
 * started first); an acts-worker (worker/acts-worker.ts) in this process with
 * BENCH_WORKERS_CONCURRENCY [8] loops then polls, answers at once and completes each. The figure:
 * acts completed per second from the worker's start until every run completed; plus the same
 * with the worker already polling while the runs are started (start → done, per run).
 */
import { createWorker } from '../worker/acts-worker.ts';
import { startTestServer } from '../test/helpers/server.ts';

const ACTS = Number(process.env.BENCH_WORKERS_ACTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_WORKERS_CONCURRENCY ?? 8);
const BACKEND = (process.env.BENCH_WORKERS_BACKEND ?? 'sqlite') as 'sqlite' | 'postgresql';

const MODEL = `id: echo
steps:
  - id: s1
    acts:
      - { uses: ext.echo, key: echo, params: { i: '{{ i }}' } }
`;

async function main(): Promise<void> {
  const server = await startTestServer({ backend: BACKEND });
  try {
    await server.as('designer').packages.register.mutate({ name: 'ext.echo', schema: { type: 'object' } });
    await server.as('designer').models.deploy.mutate({ source: MODEL });
    const operator = server.as('operator');
    const startAll = async () => {
      const pids: string[] = [];
      for (let i = 0; i < ACTS; i += 20) {
        const batch = await Promise.all(Array.from({ length: Math.min(20, ACTS - i) }, (_, k) => operator.processes.start.mutate({ mid: 'echo', inputs: { i: i + k } })));
        pids.push(...batch.map((p) => p.pid));
      }
      return pids;
    };
    const allDone = async (pids: string[]) => {
      for (const pid of pids) {
        while ((await operator.processes.get.query({ pid })).process.state !== 'completed') await new Promise((r) => setTimeout(r, 20));
      }
    };
    const worker = () => createWorker({ url: server.url, token: server.tokens.operator, packages: ['ext.echo'], concurrency: CONCURRENCY, waitSecs: 5, handler: ({ params }) => ({ echoed: params }) });

    // 1. a backlog: every act waits before the worker starts
    const backlog = await startAll();
    await server.engine.idle();
    const w1 = worker();
    const t0 = performance.now();
    w1.start();
    await allDone(backlog);
    const drainSecs = (performance.now() - t0) / 1000;
    await w1.stop();

    // 2. live: the worker polls while the runs start
    const w2 = worker();
    w2.start();
    const t1 = performance.now();
    const live = await startAll();
    await allDone(live);
    const liveSecs = (performance.now() - t1) / 1000;
    await w2.stop();

    console.log(JSON.stringify({ backend: BACKEND, acts: ACTS, concurrency: CONCURRENCY, backlog_acts_per_sec: Math.round(ACTS / drainSecs), live_runs_per_sec: Math.round(ACTS / liveSecs) }));
  } finally {
    await server.close();
  }
}

await main();
