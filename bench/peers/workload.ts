/**
 * The workload of `npm run bench:peers` (issue 12), the same for every subject: `WORKFLOWS`
 * three-step workflows (each step one unit of work that does nothing but hand over to the next)
 * started by `PRODUCERS` concurrent producers into a running system; a run ends when every
 * workflow completed durably. A subject supplies `start` (one workflow, resolves once the start is
 * durable) and `completions` (resolves each workflow's end); this file drives the producers and
 * takes the figures: wall time, per-workflow latency, the Node process's CPU time and the machine's.
 */
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import { percentile } from '../durable/common.ts';

export const PRODUCERS = Number(process.env.BENCH_PEERS_PRODUCERS ?? 8);
/**
 * Open loop instead of producers: workflows start at this steady rate (per second) for
 * OPEN_LOOP_SECS whether or not earlier starts returned, and each latency counts from the
 * workflow's scheduled start. The starts scheduled in the first WARMUP_SECS warm the process up
 * (JIT, first compiles, and the backlog those leave behind, which takes a 3,000-workflow run's
 * first 0.4-0.7 s to drain) and their latencies are not counted: the figure is the steady state's.
 */
export const OFFERED_RATE = process.env.BENCH_PEERS_RATE ? Number(process.env.BENCH_PEERS_RATE) : undefined;
const OPEN_LOOP_SECS = Number(process.env.BENCH_PEERS_OPEN_SECS ?? 10);
const WARMUP_SECS = 2;
/** Workflows of a run: BENCH_PEERS_WORKFLOWS with producers; the offered rate × OPEN_LOOP_SECS in open loop. */
export const WORKFLOWS = OFFERED_RATE ? Math.round(OFFERED_RATE * OPEN_LOOP_SECS) : Number(process.env.BENCH_PEERS_WORKFLOWS ?? 3000);

/** What a subject reports of one run; the costs are totals, divided per workflow by the table. */
export interface RunResult {
  subject: string;
  workflows: number;
  seconds: number;
  perSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Transactions committed on the subject's database (PostgreSQL: pg_stat_database; SQLite: the store's batches). */
  commits: number;
  /** Rows inserted, updated or deleted (PostgreSQL: pg_stat_database; SQLite: row writes the store was asked for). */
  rows: number;
  /** SQL statements the client sent. */
  statements: number;
  /** CPU time of the benchmark's Node process (the system under test runs in it), ms. */
  cpuMs: number;
  /** Share of the machine's two cores busy during the run (PostgreSQL's work included). */
  machineBusy: number;
}

export interface Subject {
  /** Starts workflow `i`; resolves once the start is durable. Its end is reported through `ended(i)`. */
  start(i: number): Promise<void>;
  /** Waits until everything the run wrote is durable (the last completions included). */
  drain(): Promise<void>;
  close(): Promise<void>;
  /** The store-level costs of the run (read after `close`: PostgreSQL's backends report theirs when they exit). */
  costs(): Promise<{ commits: number; rows: number; statements: number }>;
}

/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
function machineJiffies(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Tracks when each workflow ended. A subject calls `ended(i)` when workflow `i` completed;
 * `all` resolves when every one did.
 */
export class Completions {
  private readonly startedAt = new Float64Array(WORKFLOWS);
  private readonly latencies: number[] = [];
  private remaining = WORKFLOWS;
  private resolveAll!: () => void;
  readonly all = new Promise<void>((resolve) => (this.resolveAll = resolve));

  /** Workflow `i` starts now, or was scheduled to start at `at` (performance.now()). */
  started(i: number, at = performance.now()): void {
    this.startedAt[i] = at;
  }

  ended(i: number): void {
    if (!OFFERED_RATE || i >= OFFERED_RATE * WARMUP_SECS) this.latencies.push(performance.now() - this.startedAt[i]);
    if (--this.remaining === 0) this.resolveAll();
  }

  latency(p: number): number {
    return percentile(this.latencies, p);
  }
}

/** PRODUCERS concurrent producers, each starting the next workflow once its last start returned. */
async function closedLoop(subject: Subject, completions: Completions): Promise<void> {
  let next = 0;
  const producer = async () => {
    for (let i = next++; i < WORKFLOWS; i = next++) {
      completions.started(i);
      await subject.start(i);
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
}

/** Workflow `i` is due at `i / rate` seconds after the first; every start due is sent at once. */
async function openLoop(subject: Subject, completions: Completions, rate: number): Promise<void> {
  const t0 = performance.now();
  const starts: Array<Promise<void>> = [];
  for (let i = 0; i < WORKFLOWS; ) {
    const now = performance.now();
    for (; i < WORKFLOWS && t0 + (i * 1000) / rate <= now; i++) {
      completions.started(i, t0 + (i * 1000) / rate);
      starts.push(subject.start(i));
    }
    if (i < WORKFLOWS) await new Promise((resolve) => setTimeout(resolve, Math.max(0, t0 + (i * 1000) / rate - performance.now())));
  }
  await Promise.all(starts);
}

/** Runs the workload against `subject`: every workflow is started (closed or open loop), then waits for all ends. */
export async function drive(name: string, subject: Subject, completions: Completions): Promise<RunResult> {
  const cpu = process.cpuUsage();
  const machine = machineJiffies();
  const t = performance.now();
  await (OFFERED_RATE ? openLoop(subject, completions, OFFERED_RATE) : closedLoop(subject, completions));
  await completions.all;
  await subject.drain();
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const after = machineJiffies();
  await subject.close();
  const costs = await subject.costs();
  return {
    subject: name,
    workflows: WORKFLOWS,
    seconds,
    perSec: WORKFLOWS / seconds,
    p50Ms: completions.latency(0.5),
    p99Ms: completions.latency(0.99),
    ...costs,
    cpuMs: (used.user + used.system) / 1000,
    machineBusy: (after.busy - machine.busy) / Math.max(1, after.total - machine.total),
  };
}
