/**
 * Restart recovery on one store (spec 5.3): a second engine on the store of a first one continues
 * every unfinished process where it stood — waiting interrupts stay the same tasks, finished
 * siblings are not redone, timers and subflows go on. (Crash tests that kill a real process run
 * against the durable stores; these check the rebuild and the resume rules.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
async function engineOn(store: MemoryStore): Promise<Harness> {
  const h = await createHarness({ store });
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/** Runs `first` on a new store, then starts a second engine on the same rows. */
async function restart(yamls: string[], first: (h: Harness) => Promise<void>): Promise<{ before: Harness; after: Harness }> {
  const store = new MemoryStore();
  const before = await engineOn(store);
  for (const y of yamls) await before.deploy(y);
  await first(before);
  await before.settle();
  const after = await engineOn(store);
  await after.settle();
  return { before, after };
}

describe('restart recovery', () => {
  it('a waiting interrupt keeps its task; completing it after the restart finishes the process', async () => {
    let pid = '';
    let tid = '';
    const { after } = await restart(['id: lin\nsteps:\n  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] }\n  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }'], async (h) => {
      pid = await h.start('lin');
      tid = h.created('a1').tid;
    });
    expect(after.messages).toHaveLength(0);
    expect((await after.proc(pid)).tasks.find((t) => t.tid === tid)?.state).toBe('interrupted');
    await after.engine.act.complete(pid, tid);
    await after.settle();
    await after.act('complete', 'a2');
    expect((await after.proc(pid)).state).toBe('completed');
    expect(after.find({ key: 'a1', state: 'created' })).toHaveLength(0);
    const rows = await after.engine.messages.list({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] } });
    expect(rows.rows.filter((m) => m.key === 'a1' && m.state === 'created')).toHaveLength(1);
  });

  it('a parallel fan-out half answered: only the open branches remain', async () => {
    let pid = '';
    const fan = `
id: fan
inputs: { users: [u1, u2, u3] }
steps:
  - id: s1
    acts:
      - { uses: acts.core.parallel, params: { in: '{{ users }}', acts: [ { uses: acts.core.irq, key: p, params: { who: '{{ $value }}' } } ] } }
  - { id: s2, acts: [ { uses: acts.core.msg, key: done } ] }
`;
    const { before, after } = await restart([fan], async (h) => {
      pid = await h.start('fan');
      await h.engine.act.complete(pid, h.find({ key: 'p', state: 'created' })[1].tid);
    });
    const open = (await after.proc(pid)).tasks.filter((t) => t.key === 'p' && t.state === 'interrupted');
    expect(open.map((t) => t.data.$value)).toEqual(['u1', 'u3']);
    for (const t of open) await after.engine.act.complete(pid, t.tid);
    await after.settle();
    expect((await after.proc(pid)).state).toBe('completed');
    expect(after.find({ key: 'done' })).toHaveLength(1);
    expect(before.find({ key: 'p', state: 'completed' })).toHaveLength(1);
  });

  it('a sequence fan-out continues with the next item after the restart', async () => {
    let pid = '';
    const seq = `
id: seq
steps:
  - id: s1
    acts:
      - { uses: acts.core.sequence, params: { in: [a, b, c], acts: [ { uses: acts.core.irq, key: p } ] } }
`;
    const { after } = await restart([seq], async (h) => {
      pid = await h.start('seq');
      await h.act('complete', 'p');
    });
    await after.engine.act.complete(pid, (await after.proc(pid)).tasks.find((t) => t.key === 'p' && t.state === 'interrupted')!.tid);
    await after.settle();
    expect(after.created('p').inputs.options).toEqual({ $index: 2, $value: 'c' });
    await after.act('complete', 'p');
    expect((await after.proc(pid)).state).toBe('completed');
  });

  it('a subflow child waiting across the restart returns to its parent', async () => {
    let pid = '';
    const main = `
id: main
steps:
  - id: s1
    acts:
      - { uses: acts.core.subflow, params: { to: sub } }
      - { uses: acts.core.irq, key: after_sub, params: { v: '{{ v }}' } }
`;
    const sub = `
id: sub
outputs: { v: null }
steps: [ { id: t1, acts: [ { uses: acts.core.irq, key: s, outputs: { v: null } } ] } ]
`;
    const { after } = await restart([main, sub], async (h) => {
      pid = await h.start('main');
    });
    const child = (await after.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'mid', op: 'eq', value: 'sub' }] } })).rows[0];
    const s = (await after.proc(child.id)).tasks.find((t) => t.key === 's')!;
    await after.engine.act.complete(child.id, s.tid, { v: 7 });
    await after.settle();
    expect((after.created('after_sub').inputs.params as { v: number }).v).toBe(7);
  });

  it('pushed acts and loops survive the restart', async () => {
    let pid = '';
    const flow = `
id: pushy
inputs: { round: 0 }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: a1 }
      - { uses: acts.transform.code, params: '$set("round", round + 1)' }
    next: s2
  - id: s2
    branches:
      - { id: again, if: round < 2, steps: [ { id: jump, next: s1 } ] }
      - { id: stop, else: true, steps: [ { id: end } ] }
`;
    const { after } = await restart([flow], async (h) => {
      pid = await h.start('pushy');
      await h.act('complete', 'a1');
      const step = h.find({ type: 'step', key: 's1', state: 'created' })[1];
      await h.engine.act.push(pid, step.tid, { uses: 'acts.core.irq', key: 'extra' });
    });
    await after.engine.act.complete(pid, (await after.proc(pid)).tasks.find((t) => t.key === 'extra')!.tid);
    await after.engine.act.complete(pid, (await after.proc(pid)).tasks.filter((t) => t.key === 'a1' && t.state === 'interrupted')[0].tid);
    await after.settle();
    const detail = await after.proc(pid);
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.tid === '$')!.data.round).toBe(2);
  });

  it('timeouts are armed again; a rule that fired before the restart does not fire twice', async () => {
    let pid = '';
    const slow = `
id: slow
steps:
  - id: s1
    acts:
      - uses: acts.core.irq
        key: a1
        timeout:
          - { on: 2s, steps: [ { id: t1, acts: [ { uses: acts.core.msg, key: first } ] } ] }
          - { on: 5s, steps: [ { id: t2, acts: [ { uses: acts.core.msg, key: second } ] } ] }
`;
    const store = new MemoryStore();
    const before = await engineOn(store);
    await before.deploy(slow);
    pid = await before.start('slow');
    await before.tick(2000);
    expect(before.find({ key: 'first' })).toHaveLength(1);
    const after = await engineOn(store);
    after.clock.set(before.clock.now());
    await after.tick(1000);
    await after.tick(2000);
    expect(after.find({ key: 'first' })).toHaveLength(0);
    expect(after.find({ key: 'second', state: 'completed' })).toHaveLength(1);
    expect((await after.proc(pid)).tasks.find((t) => t.key === 'a1')!.state).toBe('interrupted');
  });

  it('a process whose stored model no longer parses ends in error; the others continue', async () => {
    const store = new MemoryStore();
    const before = await engineOn(store);
    await before.deploy('id: ok\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] } ]');
    const good = await before.start('ok');
    const bad = await before.start('ok');
    const row = (await store.procs.find(bad))!;
    await store.procs.update({ ...row, model: 'id: ok\nsteps: [ {' });
    const after = await engineOn(store);
    const failed = (await store.procs.find(bad))!;
    expect(failed.state).toBe('error');
    expect(failed.err?.message).toMatch(/cannot continue process/);
    await after.engine.act.complete(good, (await after.proc(good)).tasks.find((t) => t.key === 'a')!.tid);
    await after.settle();
    expect((await after.proc(good)).state).toBe('completed');
  });
});

describe('action outbox across a crash (spec 5.2, 5.3)', () => {
  const lin = 'id: lin\nsteps:\n  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] }\n  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }';

  async function crashAt(point: string, action: (h: Harness, pid: string, tid: string) => Promise<void>) {
    const store = new MemoryStore();
    let armed = false;
    const before = await createHarness({
      store,
      faults: (p) => {
        if (armed && p === point) {
          armed = false;
          throw new Error(`crash at ${p}`);
        }
      },
    });
    open.push(before);
    await before.deploy(lin);
    const pid = await before.start('lin');
    const tid = before.created('a1').tid;
    armed = true;
    await expect(action(before, pid, tid)).rejects.toThrow(`crash at ${point}`);
    const after = await engineOn(store);
    await after.settle();
    return { store, after, pid, tid };
  }

  it('an action recorded but not applied is applied by the next engine', async () => {
    const { store, after, pid, tid } = await crashAt('action:recorded', (h, pid, tid) => h.engine.act.complete(pid, tid));
    expect((await after.proc(pid)).tasks.find((t) => t.tid === tid)!.state).toBe('completed');
    expect(after.find({ key: 'a2', state: 'created' })).toHaveLength(1);
    expect((await store.ops.query()).rows.map((o) => o.status)).toEqual(['done']);
  });

  it('an action applied before the crash is not applied twice', async () => {
    const { store, after, pid, tid } = await crashAt('action:applied', (h, pid, tid) => h.engine.act.complete(pid, tid));
    expect((await after.proc(pid)).tasks.find((t) => t.tid === tid)!.state).toBe('completed');
    // a2 was created before the crash; the next engine creates nothing again
    expect(after.messages).toHaveLength(0);
    const a2 = (await after.proc(pid)).tasks.filter((t) => t.key === 'a2');
    expect(a2.map((t) => t.state)).toEqual(['interrupted']);
    expect((await store.ops.query()).rows.map((o) => o.status)).toEqual(['done']);
  });

  it('a refused action is closed too and changes nothing', async () => {
    const { store, after, pid, tid } = await crashAt('action:recorded', (h, pid, tid) => h.engine.act.back(pid, tid, { to: 'nowhere' }));
    expect((await after.proc(pid)).tasks.find((t) => t.tid === tid)!.state).toBe('interrupted');
    expect((await store.ops.query()).rows.map((o) => o.status)).toEqual(['done']);
  });
});
