/**
 * Insights on the graph (issue 14, item 6): `nodeStats` — per node of a model, over a time range,
 * how many runs are at it now, how many of its tasks ended, their median and 95th-percentile time
 * spent and their error rate (the heatmap of a model's page) — and `runBackpressure` — where one
 * run's work waits in the runtime now: jobs in a (full) lane, executions in the overflow outbox,
 * deliveries not acknowledged (badges on the run's graph). Both are reads: viewers may watch.
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { snapshotNodeIds } from '../model-node-ids.ts';
import { id } from '../limits.ts';
import { allowed, router } from '../trpc.ts';

/** The range when none is given: the last day. */
export const DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000;

const epochMs = z.number().int().min(0).max(8.64e15);

export const insightsRouter = router({
  /**
   * The figures of model `mid`'s nodes, over `[from, to]` (epoch ms; default the last day up to
   * now), or over the `last` ms up to now (a rolling range: the same input each time). `nodes`
   * holds the engine node id of each YAML path of version `ver` (default the latest), so a client
   * puts each row on its graph node; `rate` = errors / passed.
   */
  nodeStats: allowed('read')
    .input(z.object({ mid: id, from: epochMs.optional(), to: epochMs.optional(), last: epochMs.optional(), ver: z.number().int().min(1).max(1_000_000).optional() }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const time = Date.now();
      const to = input.to ?? time;
      const from = input.from ?? Math.max(0, to - (input.last ?? DEFAULT_RANGE_MS));
      if (from > to) throw new ActError('input.invalid', `the range starts (${from}) after it ends (${to}): give from <= to`);
      const ver = input.ver ?? (await engine.models.get(input.mid)).ver;
      const row = await engine.models.version(input.mid, ver);
      const stats = await engine.insights.nodeStats(input.mid, from, to);
      return {
        mid: input.mid,
        ver,
        from,
        to,
        time,
        nodes: snapshotNodeIds(engine, { mid: row.mid, model_ver: row.ver, model: row.data }),
        stats: stats.map((s) => ({ ...s, rate: s.passed > 0 ? s.errors / s.passed : null })),
      };
    }),

  /** Where the work of run `pid` waits in the runtime now, by task (with its node id). */
  runBackpressure: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => ({ ...(await ctx.services.engine.insights.runBackpressure(input.pid)), time: Date.now() })),
});
