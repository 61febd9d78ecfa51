/** Health of the engine: timer loops, lanes, store writer, and runtime figures. */
import { z } from 'zod';
import { allowed, router } from '../trpc.ts';

export const healthRouter = router({
  get: allowed('read')
    .input(z.object({}).default({}))
    .query(({ ctx }) => ({ ...ctx.services.engine.health(), stats: ctx.services.engine.stats(), instance: ctx.services.engine.instanceId })),
});
