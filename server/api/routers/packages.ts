/** Packages: the registered packages with their parameter schemas. */
import { z } from 'zod';
import { id } from '../limits.ts';
import { page, pageOf, toQuery } from '../paging.ts';
import { allowed, router } from '../trpc.ts';

export const packagesRouter = router({
  list: allowed('read')
    .input(z.object({ ...page, limit: page.limit.default(200) }).default({ offset: 0, limit: 200 }))
    .query(async ({ ctx, input }) => pageOf(await ctx.services.engine.packages.list(toQuery([], input, { field: 'id', order: 'asc' })), input)),
  get: allowed('read')
    .input(z.object({ name: id }))
    .query(({ ctx, input }) => ctx.services.engine.packages.get(input.name)),
});
