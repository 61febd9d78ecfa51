/** Triggers: list (with next and last run), enable/disable (designers), fire now (operators). */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { TOO_LARGE } from '../errors.ts';
import { id, LIMITS } from '../limits.ts';
import { eq, page, pageOf, toQuery } from '../paging.ts';
import { allowed, router } from '../trpc.ts';

/** Trigger params: an object of variables, or the text of a chat trigger. */
const params = z.union([z.record(z.string(), z.unknown()), z.string().max(LIMITS.varsBytes)]).refine((p) => JSON.stringify(p).length <= LIMITS.varsBytes, {
  message: `the params are larger than ${LIMITS.varsBytes / 1024} KiB`,
  params: { [TOO_LARGE]: true },
});

export const triggersRouter = router({
  list: allowed('read')
    .input(z.object({ ...page, mid: id.optional(), kind: z.string().max(40).optional() }).default({ offset: 0, limit: 50 }))
    .query(async ({ ctx, input }) => pageOf(await ctx.services.engine.triggers.list(toQuery([eq('mid', input.mid), eq('kind', input.kind)], input, { field: 'next_run', order: 'asc' })), input)),

  get: allowed('read')
    .input(z.object({ id }))
    .query(({ ctx, input }) => ctx.services.engine.triggers.get(input.id)),

  setEnabled: allowed('design')
    .input(z.object({ id, enabled: z.boolean() }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: input.enabled ? 'trigger.enable' : 'trigger.disable', target: input.id }, () =>
        ctx.services.engine.triggers.setEnabled(input.id, input.enabled),
      ),
    ),

  fire: allowed('operate')
    .input(z.object({ id, params: params.optional() }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'trigger.fire', target: input.id, detail: { params: input.params } }, () =>
        ctx.services.engine.triggers.start(input.id, input.params),
      ),
    ),
});
