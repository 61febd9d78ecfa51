/**
 * graphile-worker (0.17) as a subject of `npm run bench:peers`: a workflow is three tasks,
 * `step1` → `step2` → `step3`, each adding the next with `helpers.addJob`. Settings from its
 * performance documentation: concurrency, a local queue (jobs fetched and locked in batches) and
 * batched completion; new jobs are announced by LISTEN/NOTIFY, so polling does not add latency;
 * success logging off (`NO_LOG_SUCCESS`, set by the runner). A workflow counts as ended when its
 * `step3` task returned (completion is batched after that: `drain` waits until the job table is
 * empty) — which flatters its latency a little.
 */
import { Logger, makeWorkerUtils, run, runMigrations, type Runner, type TaskList, type WorkerUtils } from 'graphile-worker';
import { freshPgDatabase, PgRunCosts, pollCount } from './pg-costs.ts';
import { Completions, type Subject } from './workload.ts';

const CONCURRENCY = Number(process.env.BENCH_GRAPHILE_CONCURRENCY ?? 16);
const LOCAL_QUEUE = Number(process.env.BENCH_GRAPHILE_LOCAL_QUEUE ?? 50);

/** Errors only: the default logger writes a line per job. */
const quiet = new Logger(() => (level, message) => {
  if (level === 'error') console.error(`graphile-worker: ${message}`);
});

export async function graphileSubject(completions: Completions): Promise<Subject> {
  const db = await freshPgDatabase('graphile');
  await runMigrations({ connectionString: db.url, logger: quiet });

  const costs = new PgRunCosts(db.name);
  await costs.begin();
  const taskList: TaskList = {
    step1: async (payload, helpers) => {
      await helpers.addJob('step2', payload as object);
    },
    step2: async (payload, helpers) => {
      await helpers.addJob('step3', payload as object);
    },
    step3: async (payload) => {
      completions.ended((payload as { i: number }).i);
    },
  };
  const runner: Runner = await run({
    connectionString: db.url,
    concurrency: CONCURRENCY,
    maxPoolSize: CONCURRENCY + 8,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quiet,
    taskList,
    preset: { worker: { localQueue: { size: LOCAL_QUEUE }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  const utils: WorkerUtils = await makeWorkerUtils({ connectionString: db.url, logger: quiet });
  return {
    async start(i) {
      await utils.addJob('step1', { i });
    },
    drain: () => pollCount(db.url, 'SELECT count(*)::int AS n FROM graphile_worker._private_jobs', (n) => n === 0),
    async close() {
      await utils.release();
      await runner.stop();
    },
    async costs() {
      const run = await costs.end();
      await db.drop();
      return run;
    },
  };
}
