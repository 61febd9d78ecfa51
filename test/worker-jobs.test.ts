/**
 * Remote workers' jobs in the engine (runtime/worker-jobs.ts) on every store, with a manual clock:
 * an external act's job is leased and lapses by the clock; its timeout works as any act's; a
 * process aborted while its external act waited hands the act to no worker and is swept (its
 * delivery settled).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

const FLOW = `id: ext
steps:
  - id: s1
    acts:
      - { uses: ext.job, key: job, params: { n: 1 } }
`;

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

describe.each(BACKENDS)('worker jobs on %s', (backend) => {
  const store = useTestStore(backend);

  async function scene(sweepAfterSecs?: number): Promise<{ h: Harness; pid: string }> {
    const h = await createHarness({ store: borrowed(store()), sweepAfterSecs });
    harnesses.push(h);
    await h.engine.packages.register({ name: 'ext.job', run_as: 'worker', schema: { type: 'object' } });
    await h.deploy(FLOW);
    const pid = await h.start('ext');
    await h.settle();
    return { h, pid };
  }

  it('a lease lapses by the clock and the act comes again at the next attempt', async () => {
    const { h, pid } = await scene();
    const first = await h.engine.workers.poll({ packages: ['ext.job'], waitMs: 0, leaseMs: 5000 });
    expect(first).toMatchObject({ pid, params: { n: 1 }, attempt: 1 });
    expect(await h.engine.workers.poll({ packages: ['ext.job'], waitMs: 0, leaseMs: 5000 })).toBeNull();
    h.clock.advance(5001);
    const second = await h.engine.workers.poll({ packages: ['ext.job'], waitMs: 0, leaseMs: 5000 });
    expect(second).toMatchObject({ pid, tid: first!.tid, attempt: 2 });
    await expect(h.engine.workers.complete(first!.lease, {})).rejects.toMatchObject({ code: 'worker.lease_lost' });
    await h.engine.workers.complete(second!.lease, { ok: true });
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it("an external act's timeout works as any act's: no worker came in time, the step fails, and no worker gets the act afterwards", async () => {
    const h = await createHarness({ store: borrowed(store()) });
    harnesses.push(h);
    await h.engine.packages.register({ name: 'ext.job', run_as: 'worker', schema: { type: 'object' } });
    await h.deploy(`id: late
steps:
  - id: s1
    acts:
      - uses: ext.job
        key: job
        params: { n: 1 }
        timeout:
          - on: 2s
            steps: [ { id: give_up, acts: [ { uses: acts.core.action, params: { action: error, options: { ecode: no_worker, message: 'no worker came' } } } ] } ]
`);
    const pid = await h.start('late');
    await h.settle();
    await h.tick(2500);
    await h.settle();
    const proc = await h.proc(pid);
    expect(proc.tasks.find((t) => t.key === 'job')?.state).not.toBe('interrupted');
    expect(proc.state).toBe('error');
    expect(await h.engine.workers.poll({ packages: ['ext.job'], waitMs: 0, leaseMs: 5000 })).toBeNull();
  });

  it('a process aborted while its external act waited: no worker gets the act, and the sweeper removes it', async () => {
    const { h, pid } = await scene(0);
    await h.engine.procs.abort(pid);
    await h.settle();
    await h.tick(1000);
    await h.tick(1000);
    await expect(h.proc(pid)).rejects.toMatchObject({ code: 'process.not_found' });
    expect(await h.engine.workers.poll({ packages: ['ext.job'], waitMs: 0, leaseMs: 5000 })).toBeNull();
  });
});
