/**
 * `npm run bench:code`: user code on the engine's thread (`code_workers` 0, before issue 10) and on
 * code workers (one per lane, the server's default), side by side in one run.
 *
 *   API under attack  a real server (`server/main.ts`) on SQLite; ATTACK processes each run a code
 *                     act — or, second table, an act whose params template — that loops until
 *                     its 200 ms limit; meanwhile one client calls `health.get` back to back.
 *                     Latency p50 / p99 / max of those calls.
 *   code-act rate     an in-process engine (memory store, 4 lanes) runs RUNS processes whose one
 *                     code act does ~CPU_MS of arithmetic; processes/s and CPU ms per process
 *                     (all threads).
 * BENCH_CODE_POOLS lists the pool sizes (default `2,4`: the cores of this machine, one per lane).
 */
import { performance } from 'node:perf_hooks';
import { Engine } from '../server/runtime/engine.ts';
import { createTestDatabase } from '../test/helpers/databases.ts';
import { ServerProcess } from '../test/helpers/server-process.ts';
import { percentile, printRows } from './durable/common.ts';

const ATTACK = Number(process.env.BENCH_CODE_ATTACK ?? 50);
const RUNS = Number(process.env.BENCH_CODE_RUNS ?? 400);
const LANES = 4;
/** Code worker pool sizes compared with the engine thread (the server's default is one per lane). */
const POOLS = (process.env.BENCH_CODE_POOLS ?? `2,${LANES}`).split(',').map(Number);

const RUNAWAY = "id: runaway\nsteps: [ { id: s1, acts: [ { uses: acts.transform.code, params: 'while (true) {}' } ] } ]";
const RUNAWAY_TEMPLATE = `id: runaway
steps: [ { id: s1, acts: [ { uses: acts.transform.set, params: { x: "{{ (() => { while (true) {} })() }}" } } ] } ]`;
const WORK = `
id: work
steps:
  - id: s1
    acts:
      - uses: acts.transform.code
        params: |
          let s = 0;
          for (let i = 0; i < 300000; i++) s = (s + i * 7) % 1000003;
          return { s };
`;

const ms = (n: number) => n.toFixed(1);

async function apiUnderAttack(model: string, codeWorkers: number): Promise<Array<string | number>> {
  const db = await createTestDatabase('sqlite');
  const server = await new ServerProcess(db.url, { ACTS_CODE_WORKERS: String(codeWorkers), ACTS_SCHEDULER_WORKERS: String(LANES) }).start();
  try {
    const api = server.client();
    await api.models.deploy.mutate({ source: model });
    await api.health.get.query();
    // the probe runs from the first start on: the attack begins while the starts are still coming in
    const latencies: number[] = [];
    const t0 = performance.now();
    let pids: string[] | undefined;
    const starts = Promise.all(Array.from({ length: ATTACK }, async () => (await api.processes.start.mutate({ mid: 'runaway' })).pid)).then((all) => (pids = all));
    for (let open = ATTACK; open > 0; ) {
      const started = performance.now();
      await api.health.get.query();
      latencies.push(performance.now() - started);
      if (pids && latencies.length % 10 === 0) {
        const states = await Promise.all(pids.map(async (pid) => (await api.processes.get.query({ pid })).process.state));
        open = states.filter((s: string) => s === 'running').length;
      }
    }
    await starts;
    const secs = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    return [codeWorkers === 0 ? 'engine thread' : `${codeWorkers} workers`, latencies.length, ms(percentile(latencies, 0.5)), ms(percentile(latencies, 0.99)), ms(latencies[latencies.length - 1]), secs.toFixed(1)];
  } finally {
    await server.stop();
    await db.drop();
  }
}

async function codeActRate(codeWorkers: number): Promise<Array<string | number>> {
  const engine = await Engine.create({ autoTick: false, codeWorkers, schedulerWorkers: LANES });
  try {
    await engine.models.deploy(WORK);
    // warm-up: the first schema compile and the workers' first runs
    await Promise.all(Array.from({ length: 8 }, () => engine.procs.start('work', {})));
    await engine.idle();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const pids = await Promise.all(Array.from({ length: RUNS }, async () => (await engine.procs.start('work', {})).pid));
    await engine.idle();
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const done = (await Promise.all(pids.map((pid) => engine.procs.get(pid)))).filter((p) => p.state === 'completed').length;
    if (done !== RUNS) throw new Error(`${RUNS - done} processes did not complete`);
    return [codeWorkers === 0 ? 'engine thread' : `${codeWorkers} workers`, RUNS, (RUNS / secs).toFixed(0), ms((cpu.user + cpu.system) / 1000 / RUNS)];
  } finally {
    await engine.close();
  }
}

for (const [what, model] of [
  ['code acts', RUNAWAY],
  ['params templates', RUNAWAY_TEMPLATE],
] as const) {
  const attack = [await apiUnderAttack(model, 0)];
  for (const pool of POOLS) attack.push(await apiUnderAttack(model, pool));
  printRows(`health.get while ${ATTACK} runaway ${what} run (SQLite server, ${LANES} lanes)`, ['user code on', 'calls', 'p50 ms', 'p99 ms', 'max ms', 'attack s'], attack);
}
const rate = [await codeActRate(0)];
for (const pool of POOLS) rate.push(await codeActRate(pool));
printRows(`code acts (${RUNS} processes, memory store, ${LANES} lanes)`, ['user code on', 'processes', 'processes/s', 'CPU ms/process'], rate);
