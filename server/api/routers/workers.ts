/**
 * Remote workers (issue 13 item 6): the long-poll protocol of external packages' acts. A worker
 * (operators and admins; API token) polls for one job of its packages and leases it, then
 * completes or fails it with the lease, extending it while it works; a lapsed lease hands the act
 * to the next poll (runtime/worker-jobs.ts). Answers are audited (`worker.complete`,
 * `worker.fail`, target: the lease); polls and extensions are not. docs/server.md describes the
 * HTTP shape for other languages.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { id, vars } from '../limits.ts';
import { allowed, router } from '../trpc.ts';

/** The longest a poll waits for a job, and the lease's bounds (seconds). */
export const WORKER_LIMITS = { waitSecs: 30, leaseSecs: { min: 1, max: 3600, default: 30 } } as const;

const lease = z.string().min(3).max(200);
const leaseSecs = z.number().int().min(WORKER_LIMITS.leaseSecs.min).max(WORKER_LIMITS.leaseSecs.max).default(WORKER_LIMITS.leaseSecs.default);

export const workersRouter = router({
  /** Leases one due job of `packages`, waiting up to `waitSecs`; `{ job: null }` when none came. */
  poll: allowed('operate')
    .input(z.object({ packages: z.array(id).min(1).max(50), waitSecs: z.number().min(0).max(WORKER_LIMITS.waitSecs).default(20), leaseSecs }))
    .mutation(async ({ ctx, input, signal }) => {
      const job = await ctx.services.engine.workers.poll({ packages: input.packages, waitMs: input.waitSecs * 1000, leaseMs: input.leaseSecs * 1000, signal });
      return { job };
    }),
  /** Completes the leased act; `outputs` become its data (as a client's `complete`). */
  complete: allowed('operate')
    .input(z.object({ lease, outputs: vars.default({}) }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'worker.complete', target: input.lease, detail: { outputs: input.outputs } }, () => ctx.services.engine.workers.complete(input.lease, input.outputs)),
    ),
  /** Fails the leased act with `ecode` (its catches see it) and a message. */
  fail: allowed('operate')
    .input(z.object({ lease, ecode: z.string().min(1).max(200), message: z.string().max(4000).default('') }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'worker.fail', target: input.lease, detail: { ecode: input.ecode, message: input.message } }, () => ctx.services.engine.workers.fail(input.lease, input.ecode, input.message)),
    ),
  /** Moves the lease's end to `leaseSecs` from now. */
  extend: allowed('operate')
    .input(z.object({ lease, leaseSecs }))
    .mutation(({ ctx, input }) => ctx.services.engine.workers.extend(input.lease, input.leaseSecs * 1000)),
});
