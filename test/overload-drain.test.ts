/**
 * Throughput after an overload burst (issue 10, item 3): 5,000 starts into a tiny queue and a
 * small cache drain at no less than half the rate of the same starts with room to spare — the
 * overflow goes back into the lanes and parked processes are admitted as soon as capacity frees,
 * not on the tick (the test runs no tick at all). Both runs are measured in the same test, so a
 * loaded machine slows them alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

const STARTS = 5000;
const MODEL = `
id: small
steps:
  - { id: s1, acts: [ { uses: acts.transform.set, params: { a: 1 } } ] }
  - { id: s2, acts: [ { uses: acts.transform.code, params: 'return { b: a + 1 }' } ] }
`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Completed processes per second for STARTS starts sent 500 at a time. */
async function drainRate(options: { schedulerQueueCap?: number; cacheCap?: number }): Promise<number> {
  h = await createHarness({ schedulerWorkers: 4, ...options });
  await h.deploy(MODEL);
  await h.start('small');
  const t0 = performance.now();
  for (let sent = 0; sent < STARTS; sent += 500) await Promise.all(Array.from({ length: 500 }, () => h!.engine.procs.start('small')));
  await h.settle();
  const secs = (performance.now() - t0) / 1000;
  const open = await h.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'state', op: 'ne', value: 'completed' }] } });
  expect(open.count).toBe(0);
  expect((await h.engine.outbox()).filter((o) => o.status !== 'done')).toEqual([]);
  await h.close();
  h = undefined;
  return STARTS / secs;
}

describe('after an overload burst', () => {
  it('5,000 starts into a 32-job queue and a 50-process cache drain at ≥ 50 % of the unconstrained rate, with no tick', { timeout: 300_000 }, async () => {
    const free = await drainRate({});
    const tight = await drainRate({ schedulerQueueCap: 32, cacheCap: 50 });
    console.log(`drain rate: ${free.toFixed(0)}/s with room, ${tight.toFixed(0)}/s with queue 32 and cache 50 (${((tight / free) * 100).toFixed(0)} %)`);
    expect(tight).toBeGreaterThanOrEqual(0.5 * free);
  });
});
