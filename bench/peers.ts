/**
 * `npm run bench:peers` (issue 12): acts-studio against the job queues people would pick
 * instead, on the same PostgreSQL in the same run, with the in-memory engine as the ceiling and
 * plain `pg` as the floor. The workload (bench/peers/workload.ts): BENCH_PEERS_WORKFLOWS [3000]
 * three-step workflows started by BENCH_PEERS_PRODUCERS [8] concurrent producers into a running
 * system, done when every one completed durably. Each subject runs BENCH_PEERS_REPS [3] times,
 * round-robin, each run in a process of its own on a fresh database; the table gives medians and
 * the costs per workflow. Then each acts-studio subject runs once more in open loop at half its
 * median (BENCH_PEERS_RATE in the child: a steady offered load for BENCH_PEERS_OPEN_SECS [10],
 * the first 2 s not counted), for the latency at that load.
 * BENCH_PEERS_ONLY: a comma-separated list of subjects to run. Every subject's process runs with
 * the engine's V8 flags (ENGINE_NODE_FLAGS, server/node-flags.ts), the peers' as well.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_NODE_FLAGS } from '../server/node-flags.ts';
import { ensurePostgres, printRows } from './durable/common.ts';
import { PRODUCERS, WORKFLOWS, type RunResult } from './peers/workload.ts';

const REPS = Number(process.env.BENCH_PEERS_REPS ?? 3);
const ALL = ['acts memory', 'acts sqlite', 'acts postgresql', 'pg-boss', 'graphile-worker', 'pg commit per write', 'pg set-based'];
const ONLY = process.env.BENCH_PEERS_ONLY?.split(',').map((s) => s.trim());
const SUBJECTS = ONLY ? ALL.filter((s) => ONLY.includes(s)) : ALL;
/** Issue 12's p99 goals, start → completed, ms. */
const LATENCY_GOALS: Record<string, number> = { 'acts sqlite': 50, 'acts postgresql': 100 };
const RUN_ONE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'peers', 'run-one.ts');

/** One run of `subject` in a child process (`rate`: open loop at that many starts per second); its result. */
function runOnce(subject: string, rate?: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NO_LOG_SUCCESS: '1', ...(rate ? { BENCH_PEERS_RATE: String(rate) } : {}) };
    const child = fork(RUN_ONE, [subject], { execArgv: [...process.execArgv, ...ENGINE_NODE_FLAGS], silent: true, env });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as RunResult);
      else reject(new Error(`${subject} exited with ${code}:\n${err || out}`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

type Medians = Omit<RunResult, 'subject' | 'workflows'> & { runs: number[] };

function medians(runs: RunResult[]): Medians {
  const pick = (key: keyof RunResult) => median(runs.map((r) => r[key] as number));
  return {
    seconds: pick('seconds'),
    perSec: pick('perSec'),
    p50Ms: pick('p50Ms'),
    p99Ms: pick('p99Ms'),
    commits: pick('commits'),
    rows: pick('rows'),
    statements: pick('statements'),
    cpuMs: pick('cpuMs'),
    machineBusy: pick('machineBusy'),
    runs: runs.map((r) => r.perSec),
  };
}

async function main(): Promise<void> {
  await ensurePostgres();
  console.log(`bench:peers — ${WORKFLOWS} three-step workflows, ${PRODUCERS} producers, ${REPS} runs of each subject round-robin (medians); node flags: ${ENGINE_NODE_FLAGS.join(' ')}`);
  const results = new Map<string, RunResult[]>(SUBJECTS.map((s) => [s, []]));
  for (let rep = 1; rep <= REPS; rep++) {
    for (const subject of SUBJECTS) {
      const result = await runOnce(subject);
      results.get(subject)!.push(result);
      console.log(`  run ${rep}/${REPS} ${subject}: ${result.perSec.toFixed(0)} workflows/s, machine ${(result.machineBusy * 100).toFixed(0)} % busy`);
    }
  }
  const table = new Map([...results].map(([s, runs]) => [s, medians(runs)]));
  const rate = (s: string) => table.get(s)?.perSec;
  const ratio = (a: string, b: string) => {
    const x = rate(a);
    const y = rate(b);
    return x && y ? `${(x / y).toFixed(2)}×` : '–';
  };
  const per = (total: number) => (total / WORKFLOWS).toFixed(2);
  printRows(
    'Workflows per second and the cost of one workflow (medians; rows and commits from pg_stat_database on PostgreSQL, from the store on memory/SQLite)',
    ['subject', 'workflows/s', 'runs', 'p50 ms', 'p99 ms', 'commits/wf', 'rows/wf', 'statements/wf', 'CPU ms/wf', 'machine busy'],
    [...table].map(([s, m]) => [
      s,
      m.perSec.toFixed(0),
      m.runs.map((r) => r.toFixed(0)).join(' '),
      m.p50Ms.toFixed(1),
      m.p99Ms.toFixed(1),
      per(m.commits),
      per(m.rows),
      per(m.statements),
      (m.cpuMs / WORKFLOWS).toFixed(3),
      `${(m.machineBusy * 100).toFixed(0)} %`,
    ]),
  );
  // latency under a steady load of half the maximum just measured (open loop)
  const half: Array<Array<string>> = [];
  for (const subject of SUBJECTS.filter((s) => s.startsWith('acts '))) {
    const offered = Math.max(1, Math.round(rate(subject)! / 2));
    const run = await runOnce(subject, offered);
    const goal = LATENCY_GOALS[subject];
    half.push([subject, String(offered), run.perSec.toFixed(0), run.p50Ms.toFixed(1), run.p99Ms.toFixed(1), goal ? `≤ ${goal}` : '–', (run.cpuMs / run.workflows).toFixed(3), `${(run.machineBusy * 100).toFixed(0)} %`]);
  }
  printRows(
    'Latency at a steady offered load of half the maximum above (open loop: starts sent on schedule, latency from each scheduled start to its durable end)',
    ['subject', 'offered/s', 'completed/s', 'p50 ms', 'p99 ms', 'goal p99 ms', 'CPU ms/wf', 'machine busy'],
    half,
  );
  printRows(
    'Ratios (goals of issue 12 in brackets)',
    ['figure', 'value'],
    [
      ['acts postgresql / pg-boss  [≥ 3×]', ratio('acts postgresql', 'pg-boss')],
      ['acts postgresql / graphile-worker  [≥ 5×]', ratio('acts postgresql', 'graphile-worker')],
      ['acts sqlite, workflows/s  [≥ 1,500]', rate('acts sqlite')?.toFixed(0) ?? '–'],
      ['acts sqlite / acts memory  [≥ 0.5]', ratio('acts sqlite', 'acts memory')],
      ['acts postgresql / acts memory  [≥ 0.5]', ratio('acts postgresql', 'acts memory')],
      ['acts memory, workflows/s  [≥ 5,000]', rate('acts memory')?.toFixed(0) ?? '–'],
      ['acts postgresql / pg commit per write', ratio('acts postgresql', 'pg commit per write')],
      ['acts postgresql / pg set-based', ratio('acts postgresql', 'pg set-based')],
    ],
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
