/**
 * pg-boss (10.x, the last line for Node 20) as a subject of `npm run bench:peers`: a workflow is
 * three queues, `step1` → `step2` → `step3`; each handler takes a batch and sends the next step's
 * jobs with one `insert`. Settings from its documentation for throughput: `batchSize`, several
 * workers per queue, the minimum polling interval (0.5 s). A workflow counts as ended when its
 * `step3` handler returned (pg-boss completes the batch after that, without waiting: `drain` waits
 * until the database shows every `step3` job completed) — which flatters its latency a little.
 */
import PgBoss from 'pg-boss';
import { freshPgDatabase, PgRunCosts, pollCount } from './pg-costs.ts';
import { Completions, WORKFLOWS, type Subject } from './workload.ts';

const BATCH_SIZE = Number(process.env.BENCH_PGBOSS_BATCH ?? 100);
const WORKERS_PER_QUEUE = Number(process.env.BENCH_PGBOSS_WORKERS ?? 2);
const QUEUES = ['step1', 'step2', 'step3'] as const;

export async function pgBossSubject(completions: Completions): Promise<Subject> {
  const db = await freshPgDatabase('pgboss');
  const setup = new PgBoss({ connectionString: db.url });
  await setup.start();
  for (const name of QUEUES) await setup.createQueue(name);
  await setup.stop({ graceful: false, wait: true });

  const costs = new PgRunCosts(db.name);
  await costs.begin();
  const boss = new PgBoss({ connectionString: db.url, max: 20 });
  boss.on('error', (err) => console.error(`pg-boss: ${err.message}`));
  await boss.start();
  const handOn = (next: string) => async (jobs: PgBoss.Job<{ i: number }>[]) => {
    await boss.insert(jobs.map((job) => ({ name: next, data: job.data })));
  };
  const options = { batchSize: BATCH_SIZE, pollingIntervalSeconds: 0.5 };
  for (let w = 0; w < WORKERS_PER_QUEUE; w++) {
    await boss.work('step1', options, handOn('step2'));
    await boss.work('step2', options, handOn('step3'));
    await boss.work<{ i: number }>('step3', options, async (jobs) => {
      for (const job of jobs) completions.ended(job.data.i);
    });
  }
  return {
    async start(i) {
      await boss.send('step1', { i });
    },
    drain: () => pollCount(db.url, "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'step3' AND state = 'completed'", (n) => n >= WORKFLOWS),
    close: () => boss.stop({ graceful: false, wait: true }),
    async costs() {
      const run = await costs.end();
      await db.drop();
      return run;
    },
  };
}
