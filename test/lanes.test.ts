/**
 * Lanes and overload (spec 5.1, 5.4): per-pid FIFO across lanes, a bounded memory queue that
 * refuses work, and the outbox that takes the overflow and hands it back — nothing is lost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Lanes, type Job } from '../server/runtime/lanes.ts';
import { Engine } from '../server/runtime/engine.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

describe('Lanes', () => {
  it('runs the jobs of one pid in order and refuses work past the lane bound', async () => {
    const lanes = new Lanes(2, 4, () => undefined);
    const ran: string[] = [];
    const job = (pid: string, n: number): Job => ({ pid, name: `${pid}${n}`, run: () => void ran.push(`${pid}${n}`) });
    expect(lanes.stats().laneCapacity).toBe(2);
    expect(lanes.push(job('p', 1))).toBe(true);
    expect(lanes.push(job('p', 2))).toBe(true);
    expect(lanes.push(job('p', 3))).toBe(false);
    expect(lanes.hasRoom('p')).toBe(false);
    expect(lanes.push(job('p', 3), true)).toBe(true);
    expect(lanes.depth).toBe(3);
    await lanes.idle();
    expect(ran).toEqual(['p1', 'p2', 'p3']);
    expect(lanes.stats().highWatermark).toBe(3);
    expect(lanes.depth).toBe(0);
  });

  it('runs a process\'s chain of jobs back to back in one turn, then the next process\'s; a long chain yields', async () => {
    const turns: string[] = [];
    const lanes = new Lanes(1, 1000, () => undefined, undefined, undefined, (pid) => void turns.push(pid));
    const ran: string[] = [];
    // each job of a chain queues the next one, as an engine job queues its task's successor
    const chain = (pid: string, length: number, n = 1): Job => ({
      pid,
      name: `${pid}${n}`,
      run: () => {
        ran.push(`${pid}${n}`);
        if (n < length) lanes.push(chain(pid, length, n + 1));
      },
    });
    lanes.push(chain('a', 3));
    lanes.push(chain('b', 2));
    await lanes.idle();
    expect(ran).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(turns).toEqual(['a', 'b']);

    ran.length = 0;
    turns.length = 0;
    lanes.push(chain('a', 100));
    lanes.push(chain('b', 1));
    await lanes.idle();
    // a turn runs at most 64 jobs: b's turn comes before the rest of a's chain
    expect(ran.indexOf('b1')).toBe(64);
    expect(turns).toEqual(['a', 'b', 'a']);
    expect(ran.filter((r) => r.startsWith('a'))).toEqual(Array.from({ length: 100 }, (_, i) => `a${i + 1}`));
  });

  it('a drain pass yields to the event loop once it ran its pass\'s jobs, after the round in which it reached them', async () => {
    // one job per process, ten processes: what ran before a callback queued behind the first pass
    const ranBeforeYield = async (lanes: Lanes, workers: number): Promise<number> => {
      let ran = 0;
      for (let i = 0; i < 10; i++) lanes.push({ pid: `p${i}`, name: `p${i}`, run: () => void ran++ });
      const seen = new Promise<number>((resolve) => setImmediate(() => resolve(ran)));
      await lanes.idle();
      expect(ran).toBe(10);
      expect(lanes.stats().workers).toBe(workers);
      return seen;
    };
    expect(await ranBeforeYield(new Lanes(1, 100, () => undefined), 1)).toBe(10);
    // a round over one lane is one turn: the pass stops at 3
    expect(await ranBeforeYield(new Lanes(1, 100, () => undefined, undefined, undefined, undefined, 3), 1)).toBe(3);
    // a round over two lanes is up to two turns: the pass stops after the round that reached 3
    expect(await ranBeforeYield(new Lanes(2, 100, () => undefined, undefined, undefined, undefined, 3), 2)).toBeGreaterThanOrEqual(3);
    expect(await ranBeforeYield(new Lanes(2, 100, () => undefined, undefined, undefined, undefined, 3), 2)).toBeLessThanOrEqual(4);
  });

  it('refuses a pass of no job, a fraction or a non-number with config.invalid', async () => {
    for (const passJobs of [0, -1, 2.5, Number.NaN, '8' as unknown as number]) {
      expect(() => new Lanes(1, 10, () => undefined, undefined, undefined, undefined, passJobs), String(passJobs)).toThrow(expect.objectContaining({ code: 'config.invalid' }));
    }
    const engine = Engine.create({ store: new MemoryStore(), autoTick: false, lanePassJobs: 0 });
    await expect(engine).rejects.toMatchObject({ code: 'config.invalid', message: expect.stringContaining('lanePassJobs') });
    // the refused engine closes its code worker: nothing of it keeps the process alive
    const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const before = ports();
    await expect(Engine.create({ store: new MemoryStore(), autoTick: false, lanePassJobs: 0, codeWorkers: 1 })).rejects.toMatchObject({ code: 'config.invalid' });
    await vi.waitFor(() => expect(ports()).toBe(before), { timeout: 10_000 });
  });

  it('a job that throws does not stop its lane', async () => {
    const errors: unknown[] = [];
    const lanes = new Lanes(1, 10, (_job, err) => void errors.push(err));
    const ran: number[] = [];
    lanes.push({ pid: 'x', name: 'boom', run: () => { throw new Error('boom'); } });
    lanes.push({ pid: 'x', name: 'after', run: () => void ran.push(1) });
    await lanes.idle();
    expect(ran).toEqual([1]);
    expect(errors).toHaveLength(1);
  });
});

describe.each(BACKENDS)('overload on %s', (backend) => {
  const store = useTestStore(backend);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('1,000 starts on a tiny queue: none lost, depth within the bound, every record done', { timeout: 180_000 }, async () => {
    h = await createHarness({ store: borrowed(store()), schedulerWorkers: 2, schedulerQueueCap: 8 });
    await h.deploy(`
id: small
steps:
  - { id: s1, acts: [ { uses: acts.core.parallel, params: { in: [1, 2, 3, 4, 5], acts: [ { uses: acts.transform.set, params: { a: 1 } } ] } } ] }
  - { id: s2, acts: [ { uses: acts.transform.code, params: 'return { b: a + 1 }' } ] }
  - { id: s3, acts: [ { uses: acts.core.msg, key: done } ] }
`);
    const pids: string[] = [];
    // starts arrive 200 at a time, and each process queues 5 items at once into a lane that holds
    // 4 jobs: the lanes overflow on every store, however fast the starts come in
    for (let i = 0; i < 5; i++) {
      const started = await Promise.all(Array.from({ length: 200 }, () => h!.engine.procs.start('small')));
      pids.push(...started.map((p) => p.pid));
    }
    let rounds = 0;
    for (;;) {
      await h.settle();
      const open = (await h.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'state', op: 'ne', value: 'completed' }] } })).count;
      if (open === 0) break;
      expect(++rounds).toBeLessThan(500);
      await h.tick(2000);
    }
    const stats = h.engine.stats().lanes;
    expect(stats.highWatermark).toBeLessThanOrEqual(stats.capacity);
    expect(stats.capacity).toBe(8);
    expect(h.find({ key: 'done', state: 'completed' })).toHaveLength(1000);
    expect(new Set(h.find({ key: 'done' }).map((m) => m.pid)).size).toBe(1000);
    const ops = await h.engine.outbox();
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.filter((o) => o.status !== 'done')).toEqual([]);
    // the overflow went back into the lanes as they freed: no tick had to replay it
    expect(rounds).toBe(0);
  });

});

describe('busy lanes', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('a client action on a full lane is refused with engine.busy and changes nothing', async () => {
    h = await createHarness({ schedulerWorkers: 1, schedulerQueueCap: 1 });
    await h.deploy('id: one\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] } ]');
    const pid = await h.start('one');
    const tid = h.created('a').tid;
    // two starts at once: the first's root job fills the only lane (that start returns after its
    // turn), the second's overflows into the outbox and returns once that record is written —
    // before the lane ran: the action arrives while the first root job is still queued
    const first = h.engine.procs.start('one');
    await h.engine.procs.start('one');
    expect(h.engine.stats().lanes.depth).toBe(1);
    await expect(h.engine.act.complete(pid, tid)).rejects.toMatchObject({ code: 'engine.busy' });
    await first;
    await h.settle();
    expect(await h.engine.outbox({ filter: { type: 'and', exprs: [{ key: 'type', op: 'eq', value: 'action' }] } })).toEqual([]);
    expect((await h.proc(pid)).tasks.find((t) => t.tid === tid)!.state).toBe('interrupted');
  });
});
