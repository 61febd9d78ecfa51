/** Health of the engine: timer loops, lanes, store writer, stuck processes, runtime figures, and the delivery backlog. */
import { z } from 'zod';
import { allowed, router } from '../trpc.ts';

export const healthRouter = router({
  get: allowed('read')
    .input(z.object({}).default({}))
    .query(async ({ ctx }) => ({
      ...ctx.services.engine.health(),
      stats: ctx.services.engine.stats(),
      instance: ctx.services.engine.instanceId,
      deliveries: await ctx.services.engine.messages.backlog(),
      time: Date.now(),
    })),
});
