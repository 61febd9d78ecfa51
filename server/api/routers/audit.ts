/** The audit log, for admins: entries newest first, filtered by actor, action, target and a time range, in pages. */
import { z } from 'zod';
import { id } from '../limits.ts';
import { page, pageOf } from '../paging.ts';
import { allowed, router } from '../trpc.ts';

const time = z.number().int().min(0);
const text = z.string().min(1).max(500);

export const auditRouter = router({
  query: allowed('admin')
    .input(
      z
        .object({ ...page, actor: id.optional(), action: z.string().min(1).max(100).optional(), target: text.optional(), from: time.optional(), to: time.optional() })
        .default({ offset: 0, limit: 50 }),
    )
    .query(async ({ ctx, input }) => pageOf(await ctx.services.audit.query(input), input)),
});
