/** Health of the engine: timer loops, lanes, store writer, stuck processes, runtime figures, and the delivery backlog. */
import { z } from 'zod';
import type { Engine } from '../../engine/engine.ts';
import { allowed, router } from '../trpc.ts';

/** Deliveries still waiting for an ack (`created`) and failed ones (`error`), counted in the store. */
async function deliveryBacklog(engine: Engine): Promise<{ created: number; error: number }> {
  const count = async (status: string) => (await engine.messages.deliveries({ filter: { type: 'and', exprs: [{ key: 'status', op: 'eq', value: status }] }, limit: 1 })).count;
  const [created, error] = await Promise.all([count('created'), count('error')]);
  return { created, error };
}

export const healthRouter = router({
  get: allowed('read')
    .input(z.object({}).default({}))
    .query(async ({ ctx }) => ({
      ...ctx.services.engine.health(),
      stats: ctx.services.engine.stats(),
      instance: ctx.services.engine.instanceId,
      deliveries: await deliveryBacklog(ctx.services.engine),
      time: Date.now(),
    })),
});
