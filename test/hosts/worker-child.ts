/**
 * A remote worker in its own process for the crash test (test/workers.test.ts): polls
 * ACTS_URL with ACTS_TOKEN for ACTS_PACKAGE under a lease of ACTS_LEASE_SECS, prints
 * `job <pid> <tid> <attempt>` on stdout when it got one, and never answers (it waits to be killed).
 */
import { createWorker } from '../../worker/acts-worker.ts';

const env = (name: string): string => process.env[name] ?? '';

createWorker({
  url: env('ACTS_URL'),
  token: env('ACTS_TOKEN'),
  packages: [env('ACTS_PACKAGE')],
  leaseSecs: Number(env('ACTS_LEASE_SECS')),
  handler: (job) =>
    new Promise(() => {
      process.stdout.write(`job ${job.pid} ${job.tid} ${job.attempt}\n`);
    }),
}).start();
