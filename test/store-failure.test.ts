/**
 * A start or an action whose writes fail is reported as failed (nothing a caller was told
 * succeeded is missing from the store); the engine keeps serving once the store works again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
});

function failingStore(): { store: MemoryStore; fail: (on: boolean) => void } {
  const store = new MemoryStore();
  let failing = false;
  const batch = store.batch.bind(store);
  store.batch = async (fn) => {
    if (failing) throw new Error('disk full');
    return batch(fn);
  };
  const create = store.ops.create.bind(store.ops);
  store.ops.create = async (row) => {
    if (failing) throw new Error('disk full');
    return create(row);
  };
  return { store, fail: (on) => void (failing = on) };
}

describe('store failures reach the caller', () => {
  it('a start whose rows cannot be written fails and leaves nothing behind', async () => {
    const { store, fail } = failingStore();
    h = await createHarness({ store });
    await h.deploy('id: f\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] } ]');
    fail(true);
    await expect(h.engine.procs.start('f', { pid: 'lost' })).rejects.toThrow(/could not be written: disk full/);
    fail(false);
    await h.settle();
    expect(h.engine.stats().processes).toBe(0);
    expect(await store.procs.exists('lost')).toBe(false);
    // its first turn ran (its messages went out, as any turn's before its batch: docs/engine-decisions.md), then it was abandoned: no later turn
    const heard = h.messages.filter((m) => m.pid === 'lost').length;
    await h.settle();
    expect(h.messages.filter((m) => m.pid === 'lost')).toHaveLength(heard);
    const pid = await h.start('f');
    expect((await h.proc(pid)).state).toBe('running');
  });

  it('an action that cannot be recorded fails and changes nothing', async () => {
    const { store, fail } = failingStore();
    h = await createHarness({ store });
    await h.deploy('id: f\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] } ]');
    const pid = await h.start('f');
    const tid = h.created('a').tid;
    fail(true);
    await expect(h.engine.act.complete(pid, tid)).rejects.toThrow(/could not be recorded: disk full/);
    fail(false);
    expect((await h.proc(pid)).tasks.find((t) => t.tid === tid)!.state).toBe('interrupted');
    await h.engine.act.complete(pid, tid);
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
  });
});
