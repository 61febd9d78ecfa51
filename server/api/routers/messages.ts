/** Messages and deliveries: list both, ack one delivery, redo failed deliveries, clear failed ones. */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { audited } from '../audit.ts';
import { id } from '../limits.ts';
import { eq, page, pageOf, sortBy, toQuery } from '../paging.ts';
import { allowed, router } from '../trpc.ts';
import { DELIVERY_STATUSES } from '../../../vocab/states.ts';

const short = z.string().min(1).max(100);

export const messagesRouter = router({
  list: allowed('read')
    .input(
      z
        .object({ ...page, pid: id.optional(), tid: id.optional(), state: short.optional(), type: short.optional(), key: short.optional(), sort: sortBy(['create_time', 'state', 'key']) })
        .default({ offset: 0, limit: 50 }),
    )
    .query(async ({ ctx, input }) => {
      const filters = [eq('pid', input.pid), eq('tid', input.tid), eq('state', input.state), eq('type', input.type), eq('key', input.key)];
      const data = await ctx.services.engine.messages.list(toQuery(filters, input, input.sort ?? { field: 'create_time', order: 'desc' }));
      return pageOf(data, input);
    }),

  deliveries: allowed('read')
    .input(
      z
        .object({ ...page, pid: id.optional(), status: z.enum(DELIVERY_STATUSES).optional(), chan_id: id.optional() })
        .default({ offset: 0, limit: 50 }),
    )
    .query(async ({ ctx, input }) => {
      const filters = [eq('pid', input.pid), eq('status', input.status), eq('chan_id', input.chan_id)];
      const data = await ctx.services.engine.messages.deliveries(toQuery(filters, input, { field: 'create_time', order: 'desc' }));
      return pageOf(data, input);
    }),

  ack: allowed('operate')
    .input(z.object({ id }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'message.ack', target: input.id }, async () => {
        if (!(await ctx.services.engine.messages.ack(input.id))) throw new ActError('delivery.not_found', `there is no delivery '${input.id}'`);
        return { acked: true };
      }),
    ),

  redo: allowed('operate')
    .input(z.object({}).default({}))
    .mutation(({ ctx }) =>
      audited(ctx.services, ctx.caller, { action: 'message.redo', target: '*' }, async () => ({ count: await ctx.services.engine.messages.redo() })),
    ),

  clear: allowed('operate')
    .input(z.object({ pid: id.optional() }).default({}))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'message.clear', target: input.pid ?? '*' }, async () => ({
        count: await ctx.services.engine.messages.clear(input.pid),
      })),
    ),
});
