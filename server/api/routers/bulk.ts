/**
 * Bulk actions on runs (issue 14 item 5): `bulk.<action>` (one procedure per action of
 * vocab/bulk-actions.ts: abort, retry and fail incidents) takes a selection — the runs list's filter or a list of
 * run ids, at most 10,000 runs — and answers at once with a job id; the runs are worked through
 * in the background (bulk/jobs.ts) with the single-run checks, and `bulk.status` polls the
 * progress and the per-run results. The whole action is ONE audit entry (written when it ends;
 * a selection refused before anything was done is that one entry, with the refusal's code).
 */
import { z } from 'zod';
import { recordAudit } from '../audit.ts';
import { bulkJobsOf, RESULTS_PAGE } from '../bulk/jobs.ts';
import { BULK_OPERATIONS } from '../bulk/operations.ts';
import { bulkSelection, selectedPids } from '../bulk/selection.ts';
import { toActError } from '../errors.ts';
import { id } from '../limits.ts';
import { allows } from '../policy.ts';
import { allowed, router } from '../trpc.ts';
import { BULK_ACTIONS, MAX_BULK_RUNS, type RunsListActionName } from '../../../vocab/bulk-actions.ts';

/** The procedure that starts bulk action `action`. */
function bulkStart(action: RunsListActionName) {
  return allowed(BULK_ACTIONS[action].permission)
    .input(bulkSelection)
    .mutation(async ({ ctx, input }) => {
      try {
        const pids = await selectedPids(ctx.services.engine, input);
        const job = bulkJobsOf(ctx.services).start(ctx.services, ctx.caller, action, input, pids);
        return { job: job.id, action, total: job.total };
      } catch (err) {
        await recordAudit(ctx.services, ctx.caller, { action: BULK_OPERATIONS[action].audit, target: 'bulk', detail: input }, toActError(err).code);
        throw err;
      }
    });
}

export const bulkRouter = router({
  abort: bulkStart('abort'),
  retry: bulkStart('retry'),
  fail: bulkStart('fail'),

  /** A bulk action's progress and its per-run results from `resultsFrom` on (at most 1,000; in the order they ended). */
  status: allowed('read')
    .input(z.object({ job: id, resultsFrom: z.number().int().min(0).max(MAX_BULK_RUNS).default(0) }))
    .query(({ ctx, input }) => {
      const job = bulkJobsOf(ctx.services).get(input.job, ctx.caller, allows(ctx.caller, 'admin'));
      return {
        job: job.id,
        action: job.action,
        state: job.state,
        total: job.total,
        processed: job.results.length,
        counts: { ...job.counts },
        busyRetries: job.busyRetries,
        started: job.started,
        ended: job.ended,
        resultsFrom: input.resultsFrom,
        results: job.results.slice(input.resultsFrom, input.resultsFrom + RESULTS_PAGE),
      };
    }),
});
