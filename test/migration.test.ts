/**
 * Migrating running processes to another version of their model (issue 16, engine/migrate.ts):
 * a process waiting at an interrupt, inside a parallel fan-out, inside a loop, inside a catch
 * chain, with an armed timeout, with a running subflow, with an unacknowledged delivery, with
 * breakpoints and an incident; plans with renamed and removed nodes; refusals that leave the
 * process exactly as it was; and a second engine that reads the migrated process from the store —
 * on memory, SQLite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../server/store/contract/types.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';
import type { MigrationPlan } from '../vocab/migration.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/** v1: an approval in step `review`, then `done`. */
const V1 = `id: order
inputs: { amount: 10 }
steps:
  - { id: review, acts: [ { id: approve, uses: acts.core.irq, key: approve } ] }
  - { id: done, acts: [ { uses: acts.core.msg, key: v1_done } ] }
`;

/** v2: `review` renamed `check` (its act too), a new step `notify` after it. */
const V2 = `id: order
inputs: { amount: 10 }
steps:
  - { id: check, acts: [ { id: approve2, uses: acts.core.irq, key: approve } ] }
  - { id: notify, acts: [ { uses: acts.core.msg, key: v2_notify } ] }
  - { id: done, acts: [ { uses: acts.core.msg, key: v2_done } ] }
`;

const RENAMED: Omit<MigrationPlan, 'ver'> = { map: { review: 'check', approve: 'approve2' } };

describe.each(BACKENDS)('migrating processes on %s', (backend) => {
  const store = useTestStore(backend);
  const harness = async (on: Store = store()) => {
    const h = await createHarness({ store: borrowed(on) });
    open.push(h);
    return h;
  };
  const migrate = (h: Harness, pid: string, plan: MigrationPlan) => h.engine.migrations.migrate(pid, plan).then(() => h.settle());
  const taskRows = async (pid: string) => (await store().tasks.query({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] }, limit: 1000 })).rows;

  it('a process waiting at an interrupt moves to a renamed node and finishes on the new path', async () => {
    const h = await harness();
    await h.deploy(V1);
    const pid = await h.start('order');
    await h.deploy(V2);
    expect((await h.engine.migrations.problems(pid, { ver: 2 })).map((p) => [p.code, p.nid])).toEqual([
      ['no_target', 'review'],
      ['no_target', 'approve'],
    ]);
    expect(await h.engine.migrations.problems(pid, { ver: 2, ...RENAMED })).toEqual([]);
    await migrate(h, pid, { ver: 2, ...RENAMED });
    const detail = await h.proc(pid);
    expect(detail.model_ver).toBe(2);
    expect(detail.tasks.filter((t) => t.state === 'interrupted').map((t) => t.nid)).toEqual(['approve2']);
    await h.act('complete', 'approve', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
    expect(h.find({ pid, key: 'v2_notify' }).length).toBeGreaterThan(0);
    expect(h.find({ pid, key: 'v2_done' }).length).toBeGreaterThan(0);
    expect(h.find({ pid, key: 'v1_done' })).toHaveLength(0);
  });

  it('a refused migration leaves every row of the process as it was', async () => {
    const h = await harness();
    await h.deploy(V1);
    const pid = await h.start('order');
    await h.deploy(V2);
    await h.settle();
    const before = { proc: await store().procs.find(pid), tasks: await taskRows(pid) };
    await expect(h.engine.migrations.migrate(pid, { ver: 2 })).rejects.toMatchObject({ code: 'process.migration_refused', message: expect.stringMatching(/review.*map it to a node, or cancel it/) });
    await h.settle();
    expect(await store().procs.find(pid)).toEqual(before.proc);
    expect(await taskRows(pid)).toEqual(before.tasks);
    await h.act('complete', 'approve', {}, pid);
    expect(h.find({ pid, key: 'v1_done' }).length).toBeGreaterThan(0);
  });

  it('cancels a live act at a removed node when the plan says so; its flow goes on in the target', async () => {
    const h = await harness();
    await h.deploy(`id: chain
steps:
  - id: s1
    acts:
      - { id: first, uses: acts.core.irq, key: first }
      - { id: gone, uses: acts.core.irq, key: gone }
      - { id: last, uses: acts.core.irq, key: last }
`);
    const pid = await h.start('chain');
    await h.act('complete', 'first', {}, pid);
    await h.deploy(`id: chain
steps:
  - id: s1
    acts:
      - { id: first, uses: acts.core.irq, key: first }
      - { id: last, uses: acts.core.irq, key: last }
`);
    await migrate(h, pid, { ver: 2, removed: { gone: 'cancel' } });
    const tasks = (await h.proc(pid)).tasks;
    expect(tasks.find((t) => t.nid === 'gone')?.state).toBe('skipped');
    expect(tasks.find((t) => t.nid === 'last')?.state).toBe('interrupted');
    await h.act('complete', 'last', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('an act held by an open incident is live: it moves to its mapped node (a retry runs that one) or blocks the migration', async () => {
    const h = await harness();
    const held = (id: string, code: string) => `id: held
incidents: true
steps:
  - { id: s1, acts: [ { id: ${id}, uses: acts.transform.code, params: "${code}" } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: after } ] }
`;
    await h.deploy(held('f1', "throw new Error('not yet')"));
    const pid = await h.start('held');
    const tid = (await h.proc(pid)).control.incidents[0].tid;
    await h.deploy(held('f2', 'return { fixed: true }'));
    expect((await h.engine.migrations.problems(pid, { ver: 2 })).map((p) => [p.code, p.tid])).toEqual([['no_target', tid]]);
    await migrate(h, pid, { ver: 2, map: { f1: 'f2' } });
    expect((await h.proc(pid)).control.incidents).toMatchObject([{ tid, nid: 'f2' }]);
    await h.engine.do({ pid, tid: '$', action: 'retry', options: { tid } });
    await h.settle();
    expect(await h.states(pid, 'f2')).toEqual(['error', 'completed']);
    await h.act('complete', 'after', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('refuses a node of another kind, an act that would run another package, and inputs the target schema rejects', async () => {
    const h = await harness();
    await h.deploy(V1);
    const pid = await h.start('order');
    await h.deploy(`id: order
inputs: { amount: 10 }
inputs_schema: { type: object, properties: { amount: { type: string } } }
steps:
  - { id: review, acts: [ { id: approve, uses: acts.core.msg } ] }
`);
    const problems = await h.engine.migrations.problems(pid, { ver: 2 });
    expect(problems.map((p) => p.code)).toEqual(['inputs_rejected']);
    await h.deploy(`id: order
steps:
  - { id: review, acts: [ { id: approve, uses: acts.core.msg } ] }
`);
    expect((await h.engine.migrations.problems(pid, { ver: 3 })).map((p) => p.code)).toEqual(['act_changed']);
    await h.deploy(`id: order
steps:
  - { id: other, acts: [ { id: approve, uses: acts.core.irq } ] }
  - { id: review }
`);
    expect((await h.engine.migrations.problems(pid, { ver: 4 })).map((p) => p.code)).toEqual(['parent_moved']);
    expect((await h.engine.migrations.problems(pid, { ver: 4, map: { approve: 'review' } })).map((p) => p.code)).toEqual(['kind_changed']);
    expect((await h.engine.migrations.problems(pid, { ver: 1 })).map((p) => p.code)).toEqual(['same_version']);
    await expect(h.engine.migrations.migrate(pid, { ver: 9 })).rejects.toMatchObject({ code: 'model.not_found' });
  });

  it('a process inside a parallel fan-out moves with its expanded acts', async () => {
    const h = await harness();
    const fan = (extra: string) => `id: fan
inputs: { items: [1, 2, 3] }
steps:
  - { id: s1, acts: [ { id: spread, uses: acts.core.parallel, key: fan, params: { in: '{{ items }}', acts: [ { uses: acts.core.irq, key: item } ] } } ] }
${extra}`;
    await h.deploy(fan(''));
    const pid = await h.start('fan');
    const first = h.find({ pid, key: 'item', state: 'created' })[0];
    await h.engine.act.complete(pid, first.tid);
    await h.settle();
    await h.deploy(fan('  - { id: after, acts: [ { uses: acts.core.irq, key: after } ] }\n'));
    await migrate(h, pid, { ver: 2 });
    for (const m of h.find({ pid, key: 'item', state: 'created' }).slice(1)) await h.engine.act.complete(pid, m.tid);
    await h.settle();
    expect((await h.proc(pid)).tasks.filter((t) => t.key === 'item').map((t) => t.state)).toEqual(['completed', 'completed', 'completed']);
    await h.act('complete', 'after', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('a process inside a loop keeps looping in the target version', async () => {
    const h = await harness();
    const loop = (key: string) => `id: loop
inputs: { round: 0 }
steps:
  - id: s1
    acts:
      - { id: ask, uses: acts.core.irq, key: ask }
      - { uses: acts.transform.code, params: '$set("round", round + 1)' }
    next: s2
  - id: s2
    branches:
      - { id: again, if: round < 3, steps: [ { id: jump, next: s1 } ] }
      - { id: stop, else: true, steps: [ { id: end, acts: [ { uses: acts.core.msg, key: ${key} } ] } ] }
`;
    await h.deploy(loop('v1_end'));
    const pid = await h.start('loop');
    await h.act('complete', 'ask', {}, pid);
    await h.deploy(loop('v2_end'));
    await migrate(h, pid, { ver: 2 });
    await h.act('complete', 'ask', {}, pid);
    await h.act('complete', 'ask', {}, pid);
    const detail = await h.proc(pid);
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.tid === '$')!.data.round).toBe(3);
    expect(h.find({ pid, key: 'v2_end' }).length).toBeGreaterThan(0);
  });

  it("an armed timeout follows the target's rule and keeps the elapsed time; a fired rule stays fired", async () => {
    const h = await harness();
    const timed = (rules: string) => `id: timed
steps:
  - id: s1
    acts:
      - id: ask
        uses: acts.core.irq
        key: ask
        timeout:
${rules}
`;
    const rule = (on: string, key: string) => `          - { on: ${on}, steps: [ { id: t_${key}, acts: [ { uses: acts.core.msg, key: ${key} } ] } ] }`;
    await h.deploy(timed([rule('10s', 'early'), rule('60s', 'late')].join('\n')));
    const pid = await h.start('timed');
    await h.tick(12_000);
    expect(h.find({ pid, key: 'early' })).toHaveLength(1);
    // v2: the 10 s rule stays (fired already), the 60 s rule becomes 20 s
    await h.deploy(timed([rule('10s', 'early'), rule('20s', 'late2')].join('\n')));
    await migrate(h, pid, { ver: 2 });
    await h.tick(5_000);
    expect(h.find({ pid, key: 'late2' })).toHaveLength(0);
    // 20 s after the task's start, not after the migration
    await h.tick(3_000);
    expect(h.find({ pid, key: 'late2' })).toHaveLength(1);
    await h.tick(60_000);
    expect(h.find({ pid, key: 'early' })).toHaveLength(1);
    expect(h.find({ pid, key: 'late' })).toHaveLength(0);
  });

  it('a process waiting for a running subflow moves; the child returns to the moved act', async () => {
    const h = await harness();
    await h.deploy(`id: child
steps: [ { id: c1, acts: [ { uses: acts.core.irq, key: child_ask } ] } ]
`);
    const parent = (extra: string) => `id: parent
steps:
  - { id: s1, acts: [ { id: call, uses: acts.core.subflow, params: { to: child } } ] }
${extra}`;
    await h.deploy(parent(''));
    const pid = await h.start('parent');
    await h.deploy(parent('  - { id: s2, acts: [ { uses: acts.core.irq, key: after_child } ] }\n'));
    await migrate(h, pid, { ver: 2 });
    await h.act('complete', 'child_ask');
    await h.act('complete', 'after_child', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
    // the subflow act may not move out of its step
    const other = await h.start('parent');
    await h.deploy(`id: parent
steps:
  - { id: s0, acts: [ { id: call, uses: acts.core.subflow, params: { to: child } } ] }
  - { id: s1 }
`);
    expect((await h.engine.migrations.problems(other, { ver: 3 })).map((p) => p.code)).toEqual(['subflow_moved']);
  });

  it('a cancelled subflow act aborts its child, as a skipped one does; the parent goes on in the target', async () => {
    const h = await harness();
    await h.deploy(`id: child
steps: [ { id: c1, acts: [ { uses: acts.core.irq, key: child_ask } ] } ]
`);
    const parent = (call: string) => `id: parent
steps:
  - id: s1
    acts:
${call}      - { id: last, uses: acts.core.irq, key: last }
`;
    await h.deploy(parent('      - { id: call, uses: acts.core.subflow, params: { to: child } }\n'));
    const pid = await h.start('parent');
    const child = h.find({ key: 'child_ask', state: 'created' })[0].pid;
    await h.deploy(parent(''));
    await migrate(h, pid, { ver: 2, removed: { call: 'cancel' } });
    expect(await h.states(pid, 'call')).toEqual(['skipped']);
    expect((await h.proc(child)).state).toBe('aborted');
    await h.act('complete', 'last', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('an unacknowledged delivery is still re-sent and acknowledged after the migration', async () => {
    const h = await harness();
    const received: Array<{ key: string; state: string; delivery?: string; retry: number }> = [];
    h.engine.channel({ id: 'acker', ack: true }).onMessage((m) => void received.push({ key: m.key, state: m.state, delivery: m.delivery_id, retry: m.retry_times }));
    await h.deploy(V1);
    const pid = await h.start('order');
    const asked = () => received.filter((m) => m.key === 'approve' && m.state === 'created');
    expect(asked()).toHaveLength(1);
    await h.deploy(V2);
    await migrate(h, pid, { ver: 2, ...RENAMED });
    await h.tick(1_000);
    await h.tick(1_000);
    expect(asked().length).toBeGreaterThan(1);
    expect(new Set(asked().map((m) => m.delivery)).size).toBe(1);
    expect(await h.engine.messages.ack(asked()[0].delivery!)).toBe(true);
    await h.act('complete', 'approve', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('a second engine reads the migrated process from the store, finished tasks at removed nodes included', async () => {
    if (backend === 'memory') return;
    const h = await harness();
    await h.deploy(`id: hist
steps:
  - { id: old, acts: [ { id: old_ask, uses: acts.core.irq, key: old_ask } ] }
  - { id: keep, acts: [ { id: keep_ask, uses: acts.core.irq, key: keep_ask } ] }
`);
    const pid = await h.start('hist');
    await h.act('complete', 'old_ask', {}, pid);
    await h.deploy(`id: hist
steps:
  - { id: keep, acts: [ { id: keep_ask, uses: acts.core.irq, key: keep_ask } ] }
  - { id: new, acts: [ { uses: acts.core.irq, key: new_ask } ] }
`);
    await migrate(h, pid, { ver: 2 });
    await h.close();
    open.splice(open.indexOf(h), 1);
    const again = await harness();
    const detail = await again.proc(pid);
    expect(detail.model_ver).toBe(2);
    expect(detail.tasks.find((t) => t.nid === 'old')?.state).toBe('completed');
    const keep = detail.tasks.find((t) => t.nid === 'keep_ask')!;
    await again.engine.act.complete(pid, keep.tid);
    await again.settle();
    const newAsk = (await again.proc(pid)).tasks.find((t) => t.key === 'new_ask')!;
    await again.engine.act.complete(pid, newAsk.tid);
    await again.settle();
    expect((await again.proc(pid)).state).toBe('completed');
  });

  it('breakpoints, a pause and an open incident follow their nodes to the target version', async () => {
    const h = await harness();
    const flaky = (first: string, extra = '') => `id: flaky
incidents: true
inputs: { ok: false }
steps:
  - { id: ${first}, acts: [ { id: f1, uses: acts.transform.code, params: "if (!ok) throw new Error('not ok'); return { done: 1 }" } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: ask } ] }
${extra}`;
    await h.deploy(flaky('s1'));
    const pid = await h.start('flaky');
    const control = (action: string, options = {}) => h.engine.do({ pid, tid: '$', action, options }).then(() => h.settle());
    await control('set_breakpoints', { nodes: ['s1', 's2'] });
    expect((await h.proc(pid)).control.incidents).toMatchObject([{ nid: 'f1' }]);
    await h.deploy(flaky('first', '  - { id: s3, acts: [ { uses: acts.core.irq, key: last } ] }\n'));
    await migrate(h, pid, { ver: 2, map: { s1: 'first' } });
    const moved = (await h.proc(pid)).control;
    expect(moved.breakpoints.sort()).toEqual(['first', 's2']);
    expect(moved.incidents).toMatchObject([{ nid: 'f1' }]);
    await control('set_process_vars', { ok: true });
    await control('retry', { tid: moved.incidents[0].tid });
    // the breakpoint at s2 (kept) stops the run before the interrupt
    expect((await h.proc(pid)).control.paused).toMatchObject({ reason: 'breakpoint', nid: 's2' });
    await control('set_breakpoints', { nodes: [] });
    await control('resume');
    await h.act('complete', 'ask', {}, pid);
    await h.act('complete', 'last', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('a process inside a catch chain moves, and a lifecycle hook of the target fires', async () => {
    const h = await harness();
    const caught = (hook: string) => `id: caught
${hook}steps:
  - id: s1
    acts:
      - id: risky
        uses: acts.core.irq
        key: risky
        catches: [ { on: bad, steps: [ { id: fix, acts: [ { id: fixer, uses: acts.core.irq, key: fixer } ] } ] } ]
`;
    await h.deploy(caught(''));
    const pid = await h.start('caught');
    await h.act('error', 'risky', { ecode: 'bad' }, pid);
    expect(await h.states(pid, 'fixer')).toEqual(['interrupted']);
    await h.deploy(caught('setup: [ { id: bye, uses: acts.core.msg, key: bye, on: completed } ]\n'));
    await migrate(h, pid, { ver: 2 });
    await h.act('complete', 'fixer', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
    expect(h.find({ pid, key: 'bye' }).length).toBeGreaterThan(0);
  });
});
