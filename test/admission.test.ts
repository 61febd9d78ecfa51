/**
 * Capacity admission and parked processes (spec 5.5): at most `cache_cap` unfinished processes
 * are in memory; further starts are parked (state `none`, no messages) and start in order as
 * slots free; finished processes leave memory but stay readable from the store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../server/runtime/engine.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness as createEngineHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const ONE_IRQ = 'id: one\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] } ]';

describe.each(BACKENDS)('admission with cache_cap on %s', (backend) => {
  const store = useTestStore(backend);
  const createHarness = (options: EngineOptions = {}) => createEngineHarness({ store: borrowed(store()), ...options });

  it('cache_cap = 1: B is parked until A finishes, then starts', async () => {
    const h = await createHarness({ cacheCap: 1 });
    open.push(h);
    await h.deploy(ONE_IRQ);
    const a = await h.start('one');
    const b = await h.engine.procs.start('one');
    const c = await h.engine.procs.start('one');
    await h.settle();
    expect(b.state).toBe('none');
    expect((await h.proc(b.pid)).state).toBe('none');
    expect(h.messages.filter((m) => m.pid !== a)).toEqual([]);
    await expect(h.engine.act.complete(b.pid, 'x')).rejects.toThrow(/parked/);
    await h.act('complete', 'a', {}, a);
    expect((await h.proc(a)).state).toBe('completed');
    expect((await h.proc(b.pid)).state).toBe('running');
    expect((await h.proc(c.pid)).state).toBe('none');
    await h.act('complete', 'a', {}, b.pid);
    await h.act('complete', 'a', {}, c.pid);
    expect((await h.proc(c.pid)).state).toBe('completed');
    expect(h.engine.stats().processes).toBe(0);
  });

  it('finished processes leave memory but stay readable; actions on them are refused', async () => {
    const h = await createHarness();
    open.push(h);
    await h.deploy(ONE_IRQ);
    const pid = await h.start('one');
    const tid = h.created('a').tid;
    await h.act('complete', 'a');
    expect(h.engine.stats().processes).toBe(0);
    const detail = await h.proc(pid);
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.tid === tid)!.state).toBe('completed');
    await expect(h.engine.act.complete(pid, tid)).rejects.toMatchObject({ code: 'action.refused' });
    expect((await h.engine.procs.wait(pid)).state).toBe('completed');
  });

  it('a pid whose start failed can be used again', async () => {
    const h = await createHarness();
    open.push(h);
    await h.deploy("id: typed\ninputs_schema: { type: object, required: [x] }\nsteps: [ { id: s1 } ]");
    await expect(h.engine.procs.start('typed', { pid: 'again' })).rejects.toMatchObject({ code: 'inputs.invalid' });
    expect((await h.engine.procs.start('typed', { pid: 'again', x: 1 })).pid).toBe('again');
  });

  it('after a restart, in-flight processes are loaded before parked ones, up to the cap', async () => {
    const first = await createHarness({ cacheCap: 1 });
    await first.deploy(ONE_IRQ);
    const a = await first.start('one');
    const parked = (await first.engine.procs.start('one')).pid;
    await first.close();
    const second = await createHarness({ cacheCap: 1 });
    open.push(second);
    await second.settle();
    expect(second.engine.stats().processes).toBe(1);
    expect((await second.proc(a)).state).toBe('running');
    expect((await second.proc(parked)).state).toBe('none');
    await second.engine.act.complete(a, (await second.proc(a)).tasks.find((t) => t.key === 'a')!.tid);
    await second.settle();
    expect((await second.proc(parked)).state).toBe('running');
    expect(second.created('a').pid).toBe(parked);
  });

  it('parked starts run in start order, whether held in memory or waiting as rows after a restart', async () => {
    const first = await createHarness({ cacheCap: 1 });
    await first.deploy(ONE_IRQ);
    const a = await first.start('one');
    // parked while nothing else waits: held in memory too, but their rows are what survives
    const held = [(await first.engine.procs.start('one')).pid, (await first.engine.procs.start('one')).pid];
    await first.close();
    const second = await createHarness({ cacheCap: 1 });
    open.push(second);
    await second.settle();
    // rows wait in the store now: a new start parks behind them
    const late = (await second.engine.procs.start('one')).pid;
    const more = (await second.engine.procs.start('one')).pid;
    const order = [a, ...held, late, more];
    const started = () => second.messages.filter((m) => m.key === 'a' && m.state === 'created').map((m) => m.pid);
    for (let i = 0; i < order.length; i++) {
      await second.settle();
      // `a` was restored, its act created before the restart
      expect(started()).toEqual(order.slice(1, i + 1));
      expect(second.engine.stats().processes).toBe(1);
      const tid = (await second.proc(order[i])).tasks.find((t) => t.key === 'a')!.tid;
      await second.engine.act.complete(order[i], tid);
    }
    await second.settle();
    for (const pid of order) expect((await second.proc(pid)).state).toBe('completed');
  });

  /**
   * A parent (its first step a subflow call into `kid`, then `then`) started with `cacheCap`, the
   * engine restarted: the parent and its child are loaded, a new start of `kid` waits as rows; the
   * child's irq is answered. The restarted engine, the parent's pid and the waiting start's.
   */
  async function childEndsAfterRestart(cacheCap: number, then: string) {
    const parent = `id: parent\nsteps:\n  - { id: s1, acts: [ { uses: acts.core.subflow, params: { to: kid } } ] }\n  - { id: s2, acts: [ ${then} ] }`;
    const first = await createHarness({ cacheCap });
    await first.deploy(ONE_IRQ.replace('id: one', 'id: kid'));
    await first.deploy(parent);
    const a = await first.start('parent');
    await first.close();
    const second = await createHarness({ cacheCap });
    open.push(second);
    await second.settle();
    const waiting = (await second.engine.procs.start('kid')).pid;
    await second.settle();
    expect((await second.proc(waiting)).state).toBe('none');
    const kid = (await second.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'parent_pid', op: 'eq', value: a }] } })).rows[0].id;
    await second.engine.act.complete(kid, (await second.proc(kid)).tasks.find((t) => t.key === 'a')!.tid);
    await second.settle();
    return { second, a, waiting };
  }

  it('a slot freed while starts wait as rows goes to them, even when a subflow child joins first', async () => {
    // as the first child ends, its parent starts a second one at once
    const { second, waiting } = await childEndsAfterRestart(2, '{ uses: acts.core.subflow, params: { to: kid } }');
    // without a tick: the freed slot was the waiting start's, not the second child's
    expect((await second.proc(waiting)).state).toBe('running');
    expect(second.engine.stats().processes).toBe(3);
  });

  it('a subflow child that ends above the cap frees no slot for starts waiting as rows', async () => {
    const { second, a, waiting } = await childEndsAfterRestart(1, '{ uses: acts.core.irq, key: last }');
    // the parent alone fills the cache of one: the start still waits
    expect((await second.proc(waiting)).state).toBe('none');
    const last = async () => (await second.proc(a)).tasks.find((t) => t.key === 'last' && t.state === 'interrupted');
    await expect.poll(last).toBeDefined();
    await second.engine.act.complete(a, (await last())!.tid);
    await second.settle();
    expect((await second.proc(waiting)).state).toBe('running');
  });
});
