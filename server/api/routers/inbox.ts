/** The caller's inbox: interrupt tasks they may act on (operators and admins). */
import { z } from 'zod';
import { inboxOf } from '../inbox-query.ts';
import { page } from '../paging.ts';
import { allowed, router } from '../trpc.ts';

export const inboxRouter = router({
  list: allowed('operate')
    .input(z.object({ ...page, mid: z.string().max(200).optional() }).default({ offset: 0, limit: 50 }))
    .query(async ({ ctx, input }) => {
      const cursor = Date.now();
      const all = await inboxOf(ctx.services.engine, ctx.services.store, ctx.caller);
      const rows = input.mid ? all.filter((i) => i.mid === input.mid) : all;
      return { count: rows.length, offset: input.offset, limit: input.limit, rows: rows.slice(input.offset, input.offset + input.limit), cursor };
    }),
});
