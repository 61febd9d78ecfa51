/**
 * Snapshot stores (spec 5.8): per_proc seals once per process, per_task seals the latest value
 * per task, a replay keeps what was sealed, TTLs expire on the tick, re-registering clears.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const TWO_STEPS = `
id: rates
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: first, params: { rate: '{{ fx.eur }}' } } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: second, params: { rate: '{{ fx.eur }}' } } ] }
`;

async function run(policy: 'per_proc' | 'per_task'): Promise<[unknown, unknown]> {
  const h = await createHarness();
  open.push(h);
  h.engine.snapshots.register('fx', { policy });
  h.engine.snapshots.push('fx', '*', 1, { eur: 1.1 });
  await h.deploy(TWO_STEPS);
  await h.start('rates');
  const first = (h.created('first').inputs.params as { rate: number }).rate;
  h.engine.snapshots.push('fx', '*', 2, { eur: 1.2 });
  await h.act('complete', 'first');
  return [first, (h.created('second').inputs.params as { rate: number }).rate];
}

describe('snapshot stores', () => {
  it('per_proc: every step sees the value sealed when the process started', async () => {
    expect(await run('per_proc')).toEqual([1.1, 1.1]);
  });

  it('per_task: a later step sees the newer value', async () => {
    expect(await run('per_task')).toEqual([1.1, 1.2]);
  });

  it('scopes follow the owner; older versions are ignored; TTL and re-registration drop values', async () => {
    const h = await createHarness();
    open.push(h);
    h.engine.snapshots.register('fx', { policy: 'per_task', ttlMs: 5000 });
    expect(h.engine.snapshots.push('fx', 'acme', 3, { eur: 3 })).toBe(true);
    expect(h.engine.snapshots.push('fx', 'acme', 2, { eur: 2 })).toBe(false);
    h.engine.snapshots.push('fx', '*', 1, { eur: 1 });
    await h.deploy(TWO_STEPS);
    const acme = (await h.engine.procs.start('rates', {}, { owner: { id: 'acme' } })).pid;
    await h.settle();
    expect((h.created('first', acme).inputs.params as { rate: number }).rate).toBe(3);
    // past the TTL both entries are gone: a new process has nothing to seal and its template fails
    await h.tick(5000);
    const late = (await h.engine.procs.start('rates', {}, { owner: { id: 'acme' } })).pid;
    await h.settle();
    expect((await h.proc(late)).err?.message).toMatch(/'fx' is not defined/);
    // re-registering drops what was pushed
    h.engine.snapshots.push('fx', '*', 5, { eur: 5 });
    h.engine.snapshots.register('fx');
    const cleared = (await h.engine.procs.start('rates')).pid;
    await h.settle();
    expect((await h.proc(cleared)).state).toBe('error');
    expect(() => h.engine.snapshots.push('nope', '*', 1, {})).toThrow(/no snapshot target/);
    expect(() => h.engine.snapshots.register('not a name')).toThrow(/plain identifier/);
  });

  it('a process continued after a restart keeps the value it sealed', async () => {
    const store = new MemoryStore();
    const first = await createHarness({ store });
    open.push(first);
    first.engine.snapshots.register('fx');
    first.engine.snapshots.push('fx', '*', 1, { eur: 1.1 });
    await first.deploy(TWO_STEPS);
    const pid = await first.start('rates');
    const second = await createHarness({ store });
    open.push(second);
    second.engine.snapshots.register('fx');
    second.engine.snapshots.push('fx', '*', 9, { eur: 9.9 });
    await second.engine.act.complete(pid, (await second.proc(pid)).tasks.find((t) => t.key === 'first')!.tid);
    await second.settle();
    expect((second.created('second').inputs.params as { rate: number }).rate).toBe(1.1);
  });
});
