/**
 * Insights on the graph (issue 14, item 6), on the engine: `insights.nodeStats` — per node, the
 * runs at it now, the tasks that ended in a range, their errors and their nearest-rank median and
 * 95th percentile — matches the runs made here, on the memory store, SQLite and PostgreSQL (a
 * manual clock sets every time spent); `insights.runBackpressure` reports a run's jobs queued in a
 * full lane, its execution held in the overflow outbox and its unacknowledged deliveries on the
 * tasks they belong to, and nothing once the lane drained. The API's `insights.*` procedures: a
 * viewer reads them; the node ids of the version's YAML paths come along.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../server/runtime/runtime-types.ts';
import type { Engine } from '../server/runtime/engine.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { heatModel } from './helpers/heat-model.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const MODEL = heatModel();

/** The runtime inside an engine (the lanes are held from the test as a code worker holds them). */
const runtimeOf = (engine: Engine): Runtime => (engine as unknown as { rt: Runtime }).rt;

describe.each(BACKENDS)('insights.nodeStats (%s)', (backend) => {
  const store = useTestStore(backend);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('counts the runs at each node now, the tasks that passed in the range, their errors, median and p95', async () => {
    h = await createHarness({ store: borrowed(store()) });
    await h.deploy(MODEL);
    const t0 = h.clock.now();
    const pids: string[] = [];
    for (let i = 0; i < 7; i++) pids.push(await h.start('heat'));
    // runs 0–3 answer after 1, 2, 3, 4 s; run 4 fails after 5 s; runs 5 and 6 still wait
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1000);
      await h.act(i < 4 ? 'complete' : 'error', 'ask', i < 4 ? {} : { ecode: 'E1' }, pids[i]);
    }
    const byNid = async (from: number, to: number) => new Map((await h!.engine.insights.nodeStats('heat', from, to)).map((s) => [s.nid, s]));

    const all = await byNid(t0, t0 + 10_000);
    expect(all.get('ask')).toEqual({ nid: 'ask', now: 2, passed: 5, errors: 1, p50: 3000, p95: 5000 });
    expect(all.get('s1')).toEqual({ nid: 's1', now: 2, passed: 5, errors: 1, p50: 3000, p95: 5000 });
    expect(all.get('set')).toEqual({ nid: 'set', now: 0, passed: 4, errors: 0, p50: 0, p95: 0 });
    expect(all.get('heat')).toMatchObject({ now: 2, passed: 5, errors: 1 });
    expect([...all.keys()].sort()).toEqual(['ask', 'heat', 's1', 's2', 'set']);

    // from 2.5 s on: the answers after 3 and 4 s and the failure after 5 s; the open runs count all the same
    const late = await byNid(t0 + 2500, t0 + 10_000);
    expect(late.get('ask')).toEqual({ nid: 'ask', now: 2, passed: 3, errors: 1, p50: 4000, p95: 5000 });
    // a range before anything ended: only the runs at the nodes now
    const early = await byNid(t0 - 10_000, t0 - 1);
    expect(early.get('ask')).toEqual({ nid: 'ask', now: 2, passed: 0, errors: 0, p50: null, p95: null });
    expect(early.has('set')).toBe(false);
    // another model's figures are its own
    expect(await h.engine.insights.nodeStats('other', t0, t0 + 10_000)).toEqual([]);
  });
});

describe('insights.runBackpressure', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('puts queued jobs of a full lane, an overflowed execution and unacked deliveries on their tasks; nothing once drained', async () => {
    h = await createHarness({ schedulerWorkers: 1, schedulerQueueCap: 2 });
    await h.deploy(MODEL);
    // deliveries to this channel wait for an ack that never comes
    h.engine.channel({ id: 'slow-consumer', ack: true, key: 'ask' }).onMessage(() => undefined);
    const waiting = await h.start('heat');
    const ask = h.created('ask', waiting).tid;
    expect(await h.engine.insights.runBackpressure(waiting)).toMatchObject({
      pid: waiting,
      resident: true,
      lane: { lane: 0, size: 0, capacity: 2, full: false, held: false },
      tasks: [{ tid: ask, nid: 'ask', queued: [], overflow: false, unacked: 1, failed: 0 }],
    });

    // user code holds the only lane (as a code worker's evaluation does): new runs queue, then overflow
    const rt = runtimeOf(h.engine);
    const release = rt.jobs.queue.hold(waiting);
    const starts = [0, 1, 2, 3].map(() => h!.engine.procs.start('heat'));
    const full = await eventually(async () => {
      if (rt.outbox.refused.size === 0) return false;
      const [refused] = [...rt.outbox.refused].map(([, r]) => r);
      return { pid: refused.proc.pid, tid: refused.task.tid };
    }, 'a run overflowed into the outbox', 500);
    const overflowed = await h.engine.insights.runBackpressure(full.pid);
    expect(overflowed.lane).toMatchObject({ full: true, held: true, size: 2, capacity: 2 });
    expect(overflowed.tasks).toContainEqual(expect.objectContaining({ tid: full.tid, overflow: true }));
    const queuedPid = [...rt.procs.keys()].find((pid) => rt.jobs.queue.queuedFor(pid) > 0 && pid !== waiting)!;
    const queued = await h.engine.insights.runBackpressure(queuedPid);
    expect(queued.lane).toMatchObject({ full: true });
    expect(queued.tasks.flatMap((t) => t.queued)).toEqual([expect.stringMatching(/^exec /)]);
    expect(queued.tasks.every((t) => t.nid.length > 0)).toBe(true);

    release({ pid: waiting, name: 'released', run: () => undefined });
    await Promise.all(starts);
    await h.settle();
    for (const pid of [full.pid, queuedPid]) {
      const after = await h.engine.insights.runBackpressure(pid);
      expect(after.lane).toMatchObject({ full: false, size: 0 });
      // what is left: the ask act's delivery, still not acknowledged
      expect(after.tasks).toEqual([expect.objectContaining({ nid: 'ask', queued: [], overflow: false, unacked: 1 })]);
    }
    await expect(h.engine.insights.runBackpressure('nope')).rejects.toMatchObject({ code: 'process.not_found' });
  });
});

describe('API insights.*', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    await t.as('designer').models.deploy.mutate({ source: MODEL });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a viewer reads a model\'s node figures with the version\'s node ids, and a run\'s backpressure', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'heat' });
    await t.engine.idle();
    const stats = await t.as('viewer').insights.nodeStats.query({ mid: 'heat' });
    expect(stats).toMatchObject({ mid: 'heat', ver: 1 });
    expect(stats.to - stats.from).toBe(24 * 60 * 60 * 1000);
    expect(stats.nodes).toContainEqual({ path: 'steps[0].acts[0]', nid: 'ask' });
    expect(stats.stats.find((s) => s.nid === 'ask')).toEqual({ nid: 'ask', now: 1, passed: 0, errors: 0, p50: null, p95: null, rate: null });
    const run = await t.as('viewer').insights.runBackpressure.query({ pid });
    expect(run).toMatchObject({ pid, resident: true, tasks: [] });
    await expect(t.as('viewer').insights.nodeStats.query({ mid: 'heat', from: 10, to: 5 })).rejects.toMatchObject({ message: expect.stringContaining('after it ends') });
    await expect(t.as('viewer').insights.nodeStats.query({ mid: 'nope' })).rejects.toBeTruthy();
  });
});
