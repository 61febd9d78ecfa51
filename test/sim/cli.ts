/**
 * `npm run sim`: simulation campaigns and replays (issue 9).
 *
 *   npm run sim -- --seeds 10000 [--from 1] [--crash-every 10] [--workers 2]
 *       every seed on the memory store; every Nth also twice on SQLite, once crashed (0: never)
 *   npm run sim -- --seed 42 [--store sqlite] [--crash-at 17] [--verbose]
 *       one seed, step by step; --crash-at: crash equivalence with the crash after that write
 *   npm run sim -- --seed 42 --save <name> --note "<what broke>" [--store sqlite --crash-at 17]
 *       store the run as a regression case (test/sim/regressions/<name>.yml)
 *   npm run sim -- --replay test/sim/regressions/<name>.yml [--verbose]
 *
 * A failing seed is printed with the command that replays it. Exit code 1 when any seed failed.
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { crashEquivalence, type CrashCheck } from './crash-equivalence.ts';
import type { Violation } from './invariants.ts';
import { readRegression, writeRegression } from './regression.ts';
import { simulate, type SimResult } from './world.ts';

interface SeedReport {
  seed: number;
  processes: number;
  actions: number;
  crashes: number;
  crashAt?: number;
  /** Crash checks: families that ended as a crash-free run in another order does, and the replays made. */
  reordered?: string[];
  replays?: number;
  violations: Violation[];
  migrations: SimResult['migrations'];
}

const { values: opt } = parseArgs({
  options: {
    seeds: { type: 'string' },
    from: { type: 'string', default: '1' },
    seed: { type: 'string' },
    store: { type: 'string', default: 'memory' },
    'crash-at': { type: 'string' },
    'crash-every': { type: 'string', default: '10' },
    workers: { type: 'string', default: '2' },
    worker: { type: 'string' },
    replay: { type: 'string' },
    save: { type: 'string' },
    note: { type: 'string', default: '' },
    verbose: { type: 'boolean', default: false },
  },
});

const int = (name: string, value: string | undefined): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, got '${value}'`);
    process.exit(2);
  }
  return n;
};

function replayCommand(r: SeedReport): string {
  return r.crashAt === undefined ? `npm run sim -- --seed ${r.seed} --verbose` : `npm run sim -- --seed ${r.seed} --store sqlite --crash-at ${r.crashAt} --verbose`;
}

function printFailure(r: SeedReport): void {
  const first = r.violations[0];
  console.log(`FAIL seed ${r.seed}: ${first.invariant}${r.violations.length > 1 ? ` (+${r.violations.length - 1} more)` : ''}\n${first.detail}\n  replay: ${replayCommand(r)}`);
  if (opt.verbose) for (const v of r.violations.slice(1)) console.log(`also ${v.invariant}: ${v.detail}`);
}

function printReordered(check: CrashCheck): void {
  if (check.reordered.length === 0) return;
  console.log(`the crash settled races of ${check.reordered.join(', ')} the other way: each ended as a crash-free run in another order does (${check.replays} replays)`);
}

function fromResult(result: SimResult, crashAt?: number): SeedReport {
  return { seed: result.seed, processes: result.processes, actions: result.actions, crashes: result.crashes, crashAt, violations: result.violations, migrations: result.migrations };
}

/** One seed of a campaign: memory, and (every `crashEvery`th) crash equivalence on SQLite. */
async function campaignSeed(seed: number, crashEvery: number): Promise<SeedReport[]> {
  const reports = [fromResult(await simulate({ seed, store: 'memory' }))];
  if (crashEvery > 0 && seed % crashEvery === 0) {
    const check = await crashEquivalence(seed);
    const run = check.crashed ?? check.base;
    reports.push({ ...fromResult(run, check.at), violations: check.violations, reordered: check.reordered, replays: check.replays });
  }
  return reports;
}

/** A worker process of a campaign: runs its seeds and sends one JSON line per report. */
async function worker(range: string, crashEvery: number): Promise<void> {
  const [from, to] = range.split(':').map(Number);
  for (let seed = from; seed < to; seed++) for (const report of await campaignSeed(seed, crashEvery)) process.send?.(report);
}

async function campaign(from: number, count: number, crashEvery: number, workers: number): Promise<number> {
  const started = Date.now();
  const totals = { seeds: 0, runs: 0, processes: 0, actions: 0, crashes: 0, reordered: 0, replays: 0 };
  /** Of the memory runs: seeds that migrated a process, migrations that went through, refusals. */
  const migrations = { seeds: 0, moved: 0, refused: 0 };
  const failed: SeedReport[] = [];
  const per = Math.ceil(count / workers);
  const done = new Set<number>();
  await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const lo = from + w * per;
      const hi = Math.min(from + count, lo + per);
      if (lo >= hi) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const child = fork(process.argv[1], ['--worker', `${lo}:${hi}`, '--crash-every', String(crashEvery)], { execArgv: process.execArgv });
        child.on('message', (r: SeedReport) => {
          totals.runs++;
          totals.processes += r.processes;
          totals.actions += r.actions;
          totals.crashes += r.crashes;
          if (r.reordered?.length) totals.reordered++;
          totals.replays += r.replays ?? 0;
          if (r.crashAt === undefined && r.migrations.moved + r.migrations.refused > 0) {
            migrations.seeds++;
            migrations.moved += r.migrations.moved;
            migrations.refused += r.migrations.refused;
          }
          if (!done.has(r.seed)) {
            done.add(r.seed);
            totals.seeds++;
            if (totals.seeds % 500 === 0) console.log(`… ${totals.seeds}/${count} seeds, ${failed.length} failing, ${Math.round((Date.now() - started) / 1000)} s`);
          }
          if (r.violations.length > 0) {
            failed.push(r);
            printFailure(r);
          }
        });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${lo}:${hi} exited with ${code}`))));
      });
    }),
  );
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `${totals.seeds} seeds (${from}–${from + count - 1}), ${totals.runs} runs: ${totals.processes} processes, ${totals.actions} client actions, ` +
      `${totals.crashes} crashes injected (${totals.reordered} ended in another valid order, ${totals.replays} replays looked for orders); ${migrations.seeds} seeds migrated (${migrations.moved} moved, ${migrations.refused} refused); ` +
      `${failed.length} failing; ${secs} s wall time on ${workers} worker(s)`,
  );
  return failed.length > 0 ? 1 : 0;
}

async function one(seed: number): Promise<number> {
  const log = opt.verbose ? (line: string) => console.log(line) : undefined;
  let result: SimResult;
  let violations: Violation[];
  let crashAt: number | undefined;
  if (opt['crash-at'] !== undefined) {
    crashAt = int('crash-at', opt['crash-at']);
    const check = await crashEquivalence(seed, { at: crashAt, log });
    result = check.crashed ?? check.base;
    violations = check.violations;
    printReordered(check);
  } else {
    result = await simulate({ seed, store: opt.store === 'sqlite' ? 'sqlite' : 'memory', log });
    violations = result.violations;
  }
  const report = { ...fromResult(result, crashAt), violations };
  if (violations.length > 0) printFailure(report);
  else console.log(`seed ${seed}: ${result.processes} processes, ${result.actions} actions, ${result.crashes} crashes — every invariant held`);
  if (opt.save) {
    const file = writeRegression({
      name: opt.save,
      note: opt.note,
      seed,
      store: crashAt !== undefined || opt.store === 'sqlite' ? 'sqlite' : 'memory',
      ...(crashAt !== undefined ? { crashAfterWrites: crashAt } : {}),
      limits: result.limits,
      models: result.models,
      script: result.script,
    });
    console.log(`saved ${file}`);
  }
  return violations.length > 0 ? 1 : 0;
}

async function replay(file: string): Promise<number> {
  const regression = readRegression(file);
  const log = opt.verbose ? (line: string) => console.log(line) : undefined;
  const { seed, crashAfterWrites: at } = regression;
  const check = at === undefined ? undefined : await crashEquivalence(seed, { at, regression, log });
  if (check) printReordered(check);
  const result = check ? (check.crashed ?? check.base) : await simulate({ seed, store: regression.store, regression, log });
  const violations = check ? check.violations : result.violations;
  if (violations.length > 0) printFailure({ ...fromResult(result, at), violations });
  else console.log(`${regression.name}: every invariant held (${result.processes} processes, ${result.crashes} crashes)`);
  return violations.length > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const crashEvery = int('crash-every', opt['crash-every']);
  if (opt.worker) {
    await worker(opt.worker, crashEvery);
    return 0;
  }
  if (opt.replay) return replay(opt.replay);
  if (opt.seed !== undefined) return one(int('seed', opt.seed));
  const count = int('seeds', opt.seeds ?? '1000');
  return campaign(int('from', opt.from), count, crashEvery, Math.max(1, int('workers', opt.workers)));
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
