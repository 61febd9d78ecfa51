/**
 * `npm run bench:http`: the server through its real HTTP API and socket.io, for SQLite and
 * PostgreSQL. The server runs as its own process (`server/main.ts`, what `npm start` runs); this
 * process is the load: CLIENTS concurrent callers signed in as the admin.
 *   starts/s      64 callers start a one-irq workflow for BENCH_SECS
 *   actions/s     64 callers complete those irq tasks (the processes end)
 *   action→event  the time from sending `tasks.complete` until a socket joined to the process's
 *                 room receives the task's `completed` event: one caller (idle server) and 64
 *                 callers (loaded server); p50 / p99
 * Each throughput is measured after WARMUP_SECS of the same load (not counted).
 * The baselines measured in the same run are `auth.me` (a read that touches no engine state):
 * the HTTP + tRPC + session cost every call pays; and the engine's own starts/s — the same 64
 * callers starting the same workflow on an engine in this process, on a fresh database of the
 * same backend, without HTTP — which the API's starts/s is given as a share of (this process runs
 * with the server's V8 flags, server/node-flags.ts, so both sides have the same heap). Each throughput
 * comes with the server process's CPU time per call (all its threads, from /proc), which a noisy
 * machine disturbs far less than the rate. The callers speak tRPC's wire format over plain
 * keep-alive HTTP (http-client.ts): tRPC's own client would take most of a core on this machine.
 */
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { ensurePostgres, printRows } from './durable/common.ts';
import { createTestDatabase } from '../test/helpers/databases.ts';
import { joinRoom, leaveRoom, ServerProcess, type ApiClient } from '../test/helpers/server-process.ts';
import { Engine } from '../server/runtime/engine.ts';
import { openStore } from '../server/store/open-store.ts';
import { lightClient } from './http-client.ts';

const SECS = Number(process.env.BENCH_SECS ?? 3);
/**
 * Seconds of the same load run before each throughput is measured, not counted: a cold path (the
 * first starts after the auth.me phase, JIT and first compiles) ran at half its steady rate in
 * the first seconds, and the engine's own baseline warms up the same way.
 */
const WARMUP_SECS = Number(process.env.BENCH_WARMUP_SECS ?? 2);
const CLIENTS = Number(process.env.BENCH_HTTP_CLIENTS ?? 64);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);

const ONE_IRQ = 'id: bench\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: approve } ] } ]';

interface Waiting {
  pid: string;
  tid: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
const ms = (n: number) => n.toFixed(1);

/** Runs `body` on `clients` concurrent loops for `secs`; the number of calls that finished. */
async function sustained(clients: number, secs: number, body: () => Promise<unknown>): Promise<number> {
  const until = performance.now() + secs * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        await body();
        done++;
      }
    }),
  );
  return done;
}

/** Runs `body` once per item on `clients` concurrent loops (`worker`: the loop's number); the elapsed seconds. */
async function drain<T>(items: T[], clients: number, body: (item: T, worker: number) => Promise<unknown>): Promise<number> {
  const queue = [...items];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await body(item, worker);
    }),
  );
  return (performance.now() - t0) / 1000;
}

/** `fn`'s result and the CPU time the server process used while it ran, ms. */
async function withServerCpu<T>(server: ServerProcess, fn: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = server.cpuMs();
  const result = await fn();
  return { result, cpuMs: server.cpuMs() - before };
}

async function irqTask(api: ApiClient, pid: string): Promise<Waiting> {
  for (let i = 0; i < 100; i++) {
    const { tasks } = await api.processes.get.query({ pid });
    const task = tasks.find((t) => t.key === 'approve' && t.state === 'interrupted');
    if (task) return { pid, tid: task.tid };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`process ${pid} never reached its irq`);
}

/** Resolves when `socket` sees the `completed` task event of `tid`. */
function completedEvent(socket: Socket, tid: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (p: { tid: string; state: string }) => {
      if (p.tid !== tid || p.state !== 'completed') return;
      socket.off('task', on);
      resolve();
    };
    socket.on('task', on);
  });
}

/** Action → socket event latencies (ms, sorted) with `clients` concurrent callers, each with its own socket. */
async function eventLatency(api: ApiClient, server: ServerProcess, clients: number, samples: number): Promise<number[]> {
  const waiting = await startWaiting(api, samples, clients);
  const sockets = await Promise.all(Array.from({ length: clients }, () => server.socket()));
  const times: number[] = [];
  await drain(waiting, clients, async ({ pid, tid }, worker) => {
    const socket = sockets[worker];
    const joined = await joinRoom(socket, `proc:${pid}`);
    if (!joined.ok) throw new Error(`join proc:${pid} refused: ${JSON.stringify(joined.error)}`);
    const seen = completedEvent(socket, tid);
    const t0 = performance.now();
    await api.tasks.complete.mutate({ pid, tid });
    await seen;
    times.push(performance.now() - t0);
    await leaveRoom(socket, `proc:${pid}`);
  });
  for (const socket of sockets) socket.close();
  return times.sort((a, b) => a - b);
}

async function startWaiting(api: ApiClient, n: number, clients: number): Promise<Waiting[]> {
  const pids: string[] = [];
  await drain(
    Array.from({ length: n }, (_, i) => i),
    clients,
    async () => pids.push((await api.processes.start.mutate({ mid: 'bench' })).pid),
  );
  const waiting: Waiting[] = [];
  await drain(pids, clients, async (pid) => waiting.push(await irqTask(api, pid)));
  return waiting;
}

/** The engine's own starts/s: CLIENTS callers in this process, on a fresh database of `backend`. */
async function engineStarts(backend: 'sqlite' | 'postgresql'): Promise<number> {
  const db = await createTestDatabase(backend);
  const engine = await Engine.create({ store: await openStore(db.url), cacheCap: 1_000_000 });
  try {
    await engine.models.deploy(ONE_IRQ);
    const start = () => engine.procs.start('bench', {});
    await sustained(CLIENTS, WARMUP_SECS, start);
    const t0 = performance.now();
    const started = await sustained(CLIENTS, SECS, start);
    return started / ((performance.now() - t0) / 1000);
  } finally {
    await engine.close();
    await db.drop();
  }
}

async function measureBackend(backend: 'sqlite' | 'postgresql'): Promise<string[][]> {
  const db = await createTestDatabase(backend);
  // every process started waits at its irq until the bench completes it: none may be parked
  const server = new ServerProcess(db.url, { ACTS_CACHE_CAP: '1000000' });
  try {
    await server.start();
    // the load's client: tRPC's own costs ~5x the CPU per call (bench/http-client.ts)
    const api = lightClient(server.url, server.cookie);
    await api.models.deploy.mutate({ source: ONE_IRQ });

    await sustained(CLIENTS, WARMUP_SECS, () => api.auth.me.query());
    const me = await withServerCpu(server, () => sustained(CLIENTS, SECS, () => api.auth.me.query()));
    // started during the warm-up: they wait at their irq like the others, outside the figures
    await sustained(CLIENTS, WARMUP_SECS, () => api.processes.start.mutate({ mid: 'bench' }));
    const baseline = me.result;
    const meCpu = me.cpuMs / baseline;
    const pids: string[] = [];
    const startT0 = performance.now();
    const starts = await withServerCpu(server, () => sustained(CLIENTS, SECS, async () => pids.push((await api.processes.start.mutate({ mid: 'bench' })).pid)));
    const startCpu = starts.cpuMs / pids.length;
    const startSecs = (performance.now() - startT0) / 1000;
    const waiting: Waiting[] = [];
    await drain(pids, CLIENTS, async (pid) => waiting.push(await irqTask(api, pid)));
    const actions = await withServerCpu(server, () => drain(waiting, CLIENTS, ({ pid, tid }) => api.tasks.complete.mutate({ pid, tid })));
    const actionSecs = actions.result;
    const actionCpu = actions.cpuMs / waiting.length;

    const idle = await eventLatency(api, server, 1, Math.min(LATENCY_SAMPLES, 100));
    const loaded = await eventLatency(api, server, CLIENTS, LATENCY_SAMPLES);
    await server.stop();
    const own = await engineStarts(backend);
    const apiStarts = pids.length / startSecs;
    return [
      [backend, 'baseline auth.me /s', String(Math.round(baseline / SECS))],
      [backend, 'server CPU ms per auth.me', meCpu.toFixed(3)],
      [backend, `starts/s (${CLIENTS} clients)`, String(Math.round(apiStarts))],
      [backend, 'server CPU ms per start', startCpu.toFixed(3)],
      [backend, `engine's own starts/s (${CLIENTS} callers, no HTTP)`, String(Math.round(own))],
      [backend, 'API starts / engine\'s own  [≥ 70 %]', `${Math.round((apiStarts / own) * 100)} %`],
      [backend, `actions/s (${CLIENTS} clients)`, String(Math.round(waiting.length / actionSecs))],
      [backend, 'server CPU ms per action', actionCpu.toFixed(3)],
      [backend, 'action→event p50 / p99 ms (1 client)', `${ms(percentile(idle, 0.5))} / ${ms(percentile(idle, 0.99))}`],
      [backend, `action→event p50 / p99 ms (${CLIENTS} clients)`, `${ms(percentile(loaded, 0.5))} / ${ms(percentile(loaded, 0.99))}`],
    ];
  } finally {
    await server.stop();
    await db.drop();
  }
}

async function main(): Promise<void> {
  await ensurePostgres();
  console.log(`acts-studio HTTP benchmark (server in its own process; ${SECS} s per throughput figure)`);
  const rows: string[][] = [];
  for (const backend of ['sqlite', 'postgresql'] as const) rows.push(...(await measureBackend(backend)));
  printRows('through the HTTP API', ['backend', 'figure', 'value'], rows);
}

await main();
