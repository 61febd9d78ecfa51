/**
 * Triggers: list (with next and last run), outcomes (how each schedule's last run went),
 * enable/disable (designers), fire now (operators; optionally idempotent: start-key.ts), the last
 * webhook deliveries of a hook trigger.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { TOO_LARGE } from '../errors.ts';
import { id, LIMITS } from '../limits.ts';
import { eq, page, pageOf, toQuery } from '../paging.ts';
import { idempotencyKey, startKeyOf } from '../start-key.ts';
import { allowed, router } from '../trpc.ts';
import type { Engine } from '../../runtime/engine.ts';
import type { EventRow } from '../../runtime/read-model-types.ts';

/** A schedule is overdue when its next run is this far in the past (its timer loop is not firing it). */
export const OVERDUE_MS = 2 * 60_000;
const OUTCOMES_SCAN = 200;

/**
 * How a schedule trigger's last run went: the latest process of its model started at or after
 * the trigger's `last_run` (a start a second early counts), and whether the trigger is failing —
 * that run ended in `error`/`aborted`, or an enabled schedule is overdue.
 */
async function outcomeOf(engine: Engine, row: EventRow, now: number) {
  const last =
    row.last_run > 0
      ? (await engine.procs.list(toQuery([eq('mid', row.mid), { key: 'start_time', op: 'ge', value: row.last_run - 1000 }], { offset: 0, limit: 1 }, { field: 'start_time', order: 'desc' }))).rows[0]
      : undefined;
  const lastRun = last ? { pid: last.id, state: last.state, err: last.err } : null;
  const overdue = row.enabled && row.next_run > 0 && row.next_run < now - OVERDUE_MS;
  const errored = lastRun !== null && (lastRun.state === 'error' || lastRun.state === 'aborted');
  const reason = errored ? `its last run ${lastRun.state === 'error' ? 'failed' : 'was aborted'}${lastRun.err?.message ? `: ${lastRun.err.message}` : ''}` : overdue ? 'it is overdue: the schedule timer has not fired it' : null;
  return { id: row.id, mid: row.mid, name: row.name, cron: row.cron, timezone: row.timezone, enabled: row.enabled, next_run: row.next_run, last_run: row.last_run, lastRun, failing: reason !== null, reason };
}

/** Trigger params: an object of variables, or the text of a chat trigger. */
const params = z.union([z.record(z.string(), z.unknown()), z.string().max(LIMITS.varsBytes)]).refine((p) => JSON.stringify(p).length <= LIMITS.varsBytes, {
  message: `the params are larger than ${LIMITS.varsBytes / 1024} KiB`,
  params: { [TOO_LARGE]: true },
});

export const triggersRouter = router({
  list: allowed('read')
    .input(z.object({ ...page, mid: id.optional(), kind: z.string().max(40).optional() }).default({ offset: 0, limit: 50 }))
    .query(async ({ ctx, input }) => pageOf(await ctx.services.engine.triggers.list(toQuery([eq('mid', input.mid), eq('kind', input.kind)], input, { field: 'next_run', order: 'asc' })), input)),

  /** Every schedule trigger with the outcome of its last run and whether it is failing (failing ones first). */
  outcomes: allowed('read')
    .input(z.object({ mid: id.optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const now = Date.now();
      const rows = (await ctx.services.engine.triggers.list(toQuery([eq('kind', 'schedule'), eq('mid', input.mid)], { offset: 0, limit: OUTCOMES_SCAN }, { field: 'next_run', order: 'asc' }))).rows;
      const outcomes = await Promise.all(rows.map((row) => outcomeOf(ctx.services.engine, row, now)));
      outcomes.sort((a, b) => Number(b.failing) - Number(a.failing));
      return { count: outcomes.length, failing: outcomes.filter((o) => o.failing).length, rows: outcomes };
    }),

  get: allowed('read')
    .input(z.object({ id }))
    .query(({ ctx, input }) => ctx.services.engine.triggers.get(input.id)),

  /** The last webhook deliveries of a hook trigger, newest first (server/http/webhooks: each is an audit entry). */
  deliveries: allowed('read')
    .input(z.object({ id, limit: z.number().int().min(1).max(100).default(20) }))
    .query(async ({ ctx, input }) => {
      const { rows } = await ctx.services.audit.query({ action: 'hook.delivery', target: input.id, limit: input.limit });
      return rows.map((row) => {
        const detail = (row.detail ?? {}) as { delivery?: string; event?: string | null; pid?: string; repeated?: boolean; message?: string };
        return { id: row.id, time: row.time, result: row.result, delivery: detail.delivery ?? null, event: detail.event ?? null, pid: detail.pid ?? null, repeated: detail.repeated ?? false, message: detail.message ?? null };
      });
    }),

  setEnabled: allowed('design')
    .input(z.object({ id, enabled: z.boolean() }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: input.enabled ? 'trigger.enable' : 'trigger.disable', target: input.id }, () =>
        ctx.services.engine.triggers.setEnabled(input.id, input.enabled),
      ),
    ),

  /** With an idempotency key (input or `Idempotency-Key` header) a repeated fire answers the first process. */
  fire: allowed('operate')
    .input(z.object({ id, params: params.optional(), idempotencyKey }))
    .mutation(({ ctx, input }) => {
      const key = startKeyOf(ctx, input.idempotencyKey);
      return audited(ctx.services, ctx.caller, { action: 'trigger.fire', target: input.id, detail: { params: input.params, idempotencyKey: key } }, () =>
        ctx.services.engine.triggers.start(input.id, input.params, { idempotencyKey: key }),
      );
    }),
});
