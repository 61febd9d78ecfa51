/**
 * `npm run bench`: engine figures on the in-memory store (median and p99 over ≥ 1,000 runs).
 * The baseline measured in the same run is an empty workflow started and finished end to end, so
 * the other figures can be read as "cost above the engine's fixed overhead" on this machine.
 * Then the durable-store figures (SQLite, PostgreSQL; bench/durable.ts).
 */
import { performance } from 'node:perf_hooks';
import { ManualClock } from '../server/engine/clock.ts';
import { Engine } from '../server/runtime/engine.ts';
import { loadModel } from '../server/engine/model/index.ts';
import { PackageRegistry } from '../server/engine/packages/registry.ts';
import { createSandbox } from '../server/engine/sandbox/quickjs.ts';
import { runDurable } from './durable.ts';
import { measure, printTable, type Figure } from './stats.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);

const START_YML = `
id: start
name: bench start
inputs: { a: 1 }
steps:
  - id: step1
    name: step 1
    acts:
      - { uses: acts.core.irq, key: act1, params: { a: '{{ a }}' } }
  - id: step2
    branches:
      - { id: b1, if: a > 0, steps: [ { id: step3 } ] }
      - { id: b2, else: true, steps: [ { id: step4 } ] }
`;

const ACT_YML = `
id: act
steps:
  - { id: step1, acts: [ { uses: acts.core.irq, key: act1 } ] }
`;

const EMPTY_YML = `
id: empty
steps: [ { id: s1 } ]
`;

const TEN_STEPS_YML = `
id: ten
inputs: { n: 1 }
steps:
  - { id: s1, acts: [ { uses: acts.transform.set, params: { a: 1 } } ] }
  - { id: s2, acts: [ { uses: acts.transform.code, params: 'return { b: a + n }' } ] }
  - { id: s3, acts: [ { uses: acts.core.msg, key: m1, params: { b: '{{ b }}' } } ] }
  - { id: s4, acts: [ { uses: acts.core.msg, key: m2 } ] }
  - { id: s5, acts: [ { uses: acts.core.msg, key: m3 } ] }
  - { id: s6, acts: [ { uses: acts.transform.set, params: { c: '{{ b * 2 }}' } } ] }
  - { id: s7, acts: [ { uses: acts.transform.code, params: 'return { d: c + 1 }' } ] }
  - { id: s8, if: d > 0, acts: [ { uses: acts.core.msg, key: m4 } ] }
  - { id: s9, acts: [ { uses: acts.transform.set, params: { e: true } } ] }
  - { id: s10, acts: [ { uses: acts.core.msg, key: m5 } ] }
`;

async function main(): Promise<void> {
  const figures: Figure[] = [];
  const registry = new PackageRegistry();
  const sandbox = await createSandbox();
  const ctx = { knownPackage: (u: string) => registry.isActPackage(u), checkSyntax: (s: string, m: 'script' | 'function') => sandbox.checkSyntax(s, m) };

  figures.push(
    await measure('parse + validate (start.yml)', RUNS, () => {
      const t = performance.now();
      const { problems } = loadModel(START_YML, ctx);
      const dt = performance.now() - t;
      if (problems.length) throw new Error(problems[0].message);
      return dt;
    }),
  );
  sandbox.close();

  // cacheCap: the start and irq figures leave thousands of processes waiting; none may be parked.
  const engine = await Engine.create({ clock: new ManualClock(), autoTick: false, cacheCap: 1_000_000 });
  await engine.models.deploy(EMPTY_YML);
  await engine.models.deploy(ACT_YML);
  await engine.models.deploy(TEN_STEPS_YML);

  figures.push(
    await measure('baseline: empty workflow start → completed', RUNS, async () => {
      const t = performance.now();
      const proc = await engine.procs.start('empty');
      await engine.procs.wait(proc.pid);
      return performance.now() - t;
    }),
  );
  figures.push(
    await measure('deploy (start.yml)', RUNS, async () => {
      const t = performance.now();
      await engine.models.deploy(START_YML);
      return performance.now() - t;
    }),
  );
  figures.push(
    await measure('start (start.yml)', RUNS, async () => {
      const t = performance.now();
      await engine.procs.start('start');
      const dt = performance.now() - t;
      await engine.idle();
      return dt;
    }),
  );

  const waiting: Array<{ pid: string; tid: string }> = [];
  const channel = engine.channel({ id: 'bench', type: 'act', state: 'created', key: 'act1' });
  channel.onMessage((m) => void waiting.push({ pid: m.pid, tid: m.tid }));
  figures.push(
    await measure('start → first irq message (act.yml)', RUNS, async () => {
      const t = performance.now();
      const proc = await engine.procs.start('act');
      await engine.idle();
      const dt = performance.now() - t;
      if (!waiting.some((w) => w.pid === proc.pid)) throw new Error('irq message missing');
      return dt;
    }),
  );
  figures.push(
    await measure('one irq act completed (act.yml)', RUNS, async () => {
      const proc = await engine.procs.start('act');
      await engine.idle();
      const target = waiting.find((w) => w.pid === proc.pid);
      if (!target) throw new Error('irq message missing');
      const t = performance.now();
      await engine.act.complete(target.pid, target.tid);
      const dt = performance.now() - t;
      await engine.idle();
      return dt;
    }),
  );
  channel.close();

  figures.push(
    await measure('10-step workflow end to end (set/code/msg)', RUNS, async () => {
      const t = performance.now();
      const proc = await engine.procs.start('ten');
      const done = await engine.procs.wait(proc.pid);
      const dt = performance.now() - t;
      if (done.state !== 'completed') throw new Error(`ten ended ${done.state}: ${done.err?.message}`);
      return dt;
    }),
  );
  await engine.close();

  console.log(`acts-studio engine benchmark (in-memory store, Node ${process.version}, ${RUNS} runs each)`);
  printTable(figures);
  console.log('\nReference (Rust engine on a laptop, criterion): parse 62 µs, deploy 24 µs, start 82 µs, act 637 µs.');

  await runDurable();
}

await main();
