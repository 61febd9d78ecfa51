/**
 * Conformance suite: one test per scenario of the spec's Appendix A (as amended by section 0),
 * driven through the public Engine API only (messages, process events, task states, store rows).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';


const seq = (h: Harness, pid: string) =>
  h.messages.filter((m) => m.pid === pid).map((m) => `${m.type}/${m.state}/${m.key}`);

describe.each(BACKENDS)('Appendix A on %s', (backend) => {
  const store = useTestStore(backend);
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ store: borrowed(store()) });
  });
  afterEach(async () => {
    await h.close();
  });

  it('A1 linear approval', async () => {
    await h.deploy(`
id: lin
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }
`);
    const pid = await h.start('lin');
    expect(h.find({ key: 'a2' })).toHaveLength(0);
    await h.act('complete', 'a1');
    await h.act('complete', 'a2');
    expect(seq(h, pid)).toEqual([
      'workflow/created/lin',
      'step/created/s1',
      'act/created/a1',
      'act/completed/a1',
      'step/completed/s1',
      'step/created/s2',
      'act/created/a2',
      'act/completed/a2',
      'step/completed/s2',
      'workflow/completed/lin',
    ]);
    expect(h.started).toHaveLength(1);
    expect(h.completed).toHaveLength(1);
    expect(h.completed[0].state).toBe('completed');
    expect(h.errored).toHaveLength(0);
    expect(h.messages.some((m) => m.type === 'branch')).toBe(false);
  });

  const elseModel = `
id: els
inputs: { v: 0 }
steps:
  - id: s1
    branches:
      - { id: b1, if: "v < 0", steps: [ { id: x } ] }
      - { id: b2, else: true, steps: [ { id: y } ] }
`;

  it('A2 else branch runs only when every other branch is skipped', async () => {
    await h.deploy(elseModel);
    const p1 = await h.start('els', { v: 1 });
    expect(await h.states(p1, 'b1')).toEqual(['skipped']);
    expect(await h.states(p1, 'b2')).toEqual(['completed']);
    expect((await h.proc(p1)).state).toBe('completed');
    const p2 = await h.start('els', { v: -1 });
    expect(await h.states(p2, 'b1')).toEqual(['completed']);
    expect(await h.states(p2, 'b2')).toEqual(['skipped']);
    expect((await h.proc(p2)).state).toBe('completed');
  });

  it('A3 branch matrix and needs', async () => {
    await h.deploy(`
id: matrix
inputs: { v: 5 }
steps:
  - id: s1
    branches:
      - { id: b1, if: "v > 0", steps: [ { id: x1, acts: [ { uses: acts.core.irq, key: wait } ] } ] }
      - { id: b2, if: "v <= 0", steps: [ { id: x2 } ] }
      - { id: b3, if: "v > 2", steps: [ { id: x3 } ] }
      - { id: b4, steps: [ { id: x4 } ] }
      - { id: b5, needs: [b1], steps: [ { id: x5 } ] }
`);
    const pid = await h.start('matrix');
    expect(await h.states(pid, 'b2')).toEqual(['skipped']);
    expect(await h.states(pid, 'b3')).toEqual(['completed']);
    expect(await h.states(pid, 'b4')).toEqual(['skipped']);
    expect(await h.states(pid, 'b1')).toEqual(['running']);
    expect(await h.states(pid, 'b5')).toEqual(['pending']);
    await h.act('complete', 'wait');
    expect(await h.states(pid, 'b1')).toEqual(['completed']);
    expect(await h.states(pid, 'b5')).toEqual(['completed']);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('A4 loop with next computes 0+1+2+3+4', async () => {
    await h.deploy(`
id: simple
inputs: { input: 4, index: 0, value: 0 }
outputs: { result: '{{ value }}' }
steps:
  - id: cond
    branches:
      - id: b1
        if: index <= input
        steps:
          - id: add
            acts:
              - uses: acts.transform.code
                params: |
                  $set("value", $get("value") + $get("index"));
                  $set("index", $get("index") + 1);
            next: cond
      - { id: b2, if: index > input, steps: [ { id: done } ] }
`);
    const pid = await h.start('simple');
    expect(h.completed).toHaveLength(1);
    expect(h.completed[0].outputs.result).toBe(10);
    const detail = await h.proc(pid);
    expect(detail.state).toBe('completed');
    expect(detail.tasks.filter((t) => t.nid === 'cond')).toHaveLength(6);
    expect(detail.tasks.filter((t) => !['completed', 'skipped'].includes(t.state))).toEqual([]);
  });

  it('A5 outputs contract', async () => {
    await h.deploy(`
id: contract
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: a, outputs: { a: null, b: null } }
`);
    const pid = await h.start('contract');
    await expect(h.act('complete', 'a', {})).rejects.toMatchObject({ code: 'action.invalid_options' });
    expect(await h.states(pid, h.created('a').nid)).toEqual(['interrupted']);
    await h.act('complete', 'a', { a: 'x', b: 5, c: [1] });
    const tasks = (await h.proc(pid)).tasks;
    const act = tasks.find((t) => t.kind === 'act')!;
    expect(act.data).toMatchObject({ a: 'x', b: 5 });
    expect(act.data).not.toHaveProperty('c');
    const step = tasks.find((t) => t.nid === 's1')!;
    expect(step.data).toMatchObject({ a: 'x', b: 5 });
    expect(step.data).not.toHaveProperty('c');
  });

  it('A6 double completion fails and changes nothing', async () => {
    await h.deploy(`
id: twice
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 }, { uses: acts.core.irq, key: a2 } ] }
`);
    const pid = await h.start('twice');
    const m = h.created('a1');
    await h.engine.act.complete(pid, m.tid);
    await h.settle();
    const before = h.messages.length;
    await expect(h.engine.act.complete(pid, m.tid)).rejects.toThrow(/already completed/);
    await h.settle();
    expect(h.messages.length).toBe(before);
    expect((await h.proc(pid)).state).toBe('running');
    expect(h.created('a2')).toBeTruthy();
  });

  const catchModel = `
id: catcher
steps:
  - id: s1
    acts:
      - uses: acts.core.irq
        key: a1
        catches:
          - on: err1
            steps: [ { id: fixstep, acts: [ { uses: acts.core.irq, key: fix } ] } ]
`;

  it('A7 act-level catch by ecode', async () => {
    await h.deploy(catchModel);
    const pid = await h.start('catcher');
    await h.act('error', 'a1', { ecode: 'err1' });
    expect(h.find({ key: 'fix', state: 'created' })).toHaveLength(1);
    await h.act('complete', 'fix');
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['completed']);
    expect((await h.proc(pid)).state).toBe('completed');
    expect(h.completed).toHaveLength(1);
  });

  it('A7 an ecode no rule matches fails the process; no ecode is refused', async () => {
    await h.deploy(catchModel);
    const pid = await h.start('catcher');
    await expect(h.act('error', 'a1', {})).rejects.toMatchObject({ code: 'action.invalid_options' });
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['interrupted']);
    await h.act('error', 'a1', { ecode: 'err2' });
    expect(h.find({ key: 'fix' })).toHaveLength(0);
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['error']);
    expect((await h.proc(pid)).state).toBe('error');
    expect((await h.proc(pid)).err).toEqual({ ecode: 'err2', message: '' });
    expect(h.errored).toHaveLength(1);
    expect(h.completed).toHaveLength(0);
  });

  it('A8 catch and continue at step level', async () => {
    await h.deploy(`
id: cont
steps:
  - id: s1
    catches: [ { steps: [ { id: c1, acts: [ { uses: acts.core.msg, key: m } ] } ] } ]
    acts: [ { uses: acts.core.irq, key: a1 } ]
  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }
`);
    const pid = await h.start('cont');
    await h.act('error', 'a1', { ecode: 'anything' });
    const keys = seq(h, pid);
    expect(keys.indexOf('act/completed/m')).toBeGreaterThan(-1);
    expect(keys.indexOf('act/created/a2')).toBeGreaterThan(keys.indexOf('act/completed/m'));
    expect(await h.states(pid, h.find({ key: 'a1' })[0].nid)).toEqual(['error']);
    expect(await h.states(pid, 's1')).toEqual(['completed']);
  });

  const twoSteps = `
id: two
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }
`;

  it('A9 abort ends the process through on_complete', async () => {
    await h.deploy(twoSteps);
    const pid = await h.start('two');
    await h.act('abort', 'a1');
    const detail = await h.proc(pid);
    expect(detail.state).toBe('aborted');
    expect(h.completed.map((m) => m.state)).toEqual(['aborted']);
    expect(h.errored).toHaveLength(0);
    expect(detail.tasks.some((t) => t.nid === 's2')).toBe(false);
  });

  it('A10 skip', async () => {
    await h.deploy(twoSteps);
    const pid = await h.start('two');
    await h.act('skip', 'a1');
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['skipped']);
    expect(await h.states(pid, 's1')).toEqual(['completed']);
    expect(h.created('a2')).toBeTruthy();
  });

  it('A11 submit ends the act chain', async () => {
    await h.deploy(`
id: sub
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 }, { uses: acts.core.irq, key: a1b } ] }
`);
    const pid = await h.start('sub');
    await h.act('submit', 'a1');
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['submitted']);
    expect(await h.states(pid, 's1')).toEqual(['completed']);
    expect(h.find({ key: 'a1b' })).toHaveLength(0);
  });

  it('A12 back creates a new task of the earlier step', async () => {
    await h.deploy(twoSteps);
    const pid = await h.start('two');
    await h.act('complete', 'a1');
    const firstA1 = h.created('a1');
    await h.act('back', 'a2', { to: 's1' });
    expect(await h.states(pid, h.created('a2').nid)).toEqual(['backed']);
    expect(await h.states(pid, 's2')).toEqual(['backed']);
    expect(await h.states(pid, 's1')).toEqual(['completed', 'running']);
    const a1Created = h.find({ key: 'a1', state: 'created' });
    expect(a1Created).toHaveLength(2);
    expect(a1Created[1].tid).not.toBe(firstA1.tid);
    await h.act('complete', 'a1');
    await h.act('complete', 'a2');
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('A13 cancel withdraws a completed approval while the next step waits', async () => {
    await h.deploy(twoSteps);
    const pid = await h.start('two');
    await expect(h.act('cancel', 'a1')).rejects.toMatchObject({ code: 'action.refused' });
    await h.act('complete', 'a1');
    const a1 = h.find({ key: 'a1', state: 'completed' })[0];
    await h.engine.act.cancel(pid, a1.tid);
    await h.settle();
    expect(await h.states(pid, h.created('a2').nid)).toEqual(['cancelled']);
    expect(await h.states(pid, 's2')).toEqual(['completed']);
    expect(await h.states(pid, 's1')).toEqual(['completed', 'running']);
    expect(h.find({ key: 'a1', state: 'created' })).toHaveLength(2);
    await h.act('complete', 'a1');
    await h.act('complete', 'a2');
    expect((await h.proc(pid)).state).toBe('completed');
  });

  const fanOut = (uses: string) => `
id: fan
steps:
  - id: s1
    acts:
      - uses: acts.transform.set
        params: { users: [u1, u2, u3] }
      - uses: ${uses}
        params:
          in: '{{ users }}'
          acts:
            - uses: acts.core.irq
              key: p
              params: { who: '{{ $value }}' }
`;

  it('A14 parallel fan-out', async () => {
    await h.deploy(fanOut('acts.core.parallel'));
    const pid = await h.start('fan');
    const ps = h.find({ key: 'p', state: 'created' });
    expect(ps.map((m) => m.inputs.options)).toEqual([
      { $index: 0, $value: 'u1' },
      { $index: 1, $value: 'u2' },
      { $index: 2, $value: 'u3' },
    ]);
    expect(ps.map((m) => (m.inputs.params as { who: string }).who)).toEqual(['u1', 'u2', 'u3']);
    for (const m of ps.slice(0, 2)) await h.engine.act.complete(pid, m.tid);
    await h.settle();
    expect(await h.states(pid, 's1')).toEqual(['running']);
    await h.engine.act.complete(pid, ps[2].tid);
    await h.settle();
    expect(await h.states(pid, 's1')).toEqual(['completed']);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('A14 sequence fan-out runs one item after another', async () => {
    await h.deploy(fanOut('acts.core.sequence'));
    const pid = await h.start('fan');
    for (const [i, who] of ['u1', 'u2', 'u3'].entries()) {
      const ps = h.find({ key: 'p', state: 'created' });
      expect(ps).toHaveLength(i + 1);
      expect(ps[i].inputs.options).toEqual({ $index: i, $value: who });
      await h.engine.act.complete(pid, ps[i].tid);
      await h.settle();
    }
    expect((await h.proc(pid)).state).toBe('completed');
  });

  const subflowModels = async () => {
    await h.deploy(`
id: main
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: init, outputs: { v: null } }
      - { uses: acts.core.subflow, key: call, params: { to: sub, options: { v: '{{ v }}' } } }
      - { uses: acts.core.irq, key: final, params: { v: '{{ v }}' } }
`);
    await h.deploy(`
id: sub
outputs: { v: null }
steps:
  - id: t1
    acts:
      - { uses: acts.core.irq, key: s, outputs: { v: null } }
`);
  };

  it('A15 subflow round trip', async () => {
    await subflowModels();
    const pid = await h.start('main');
    await h.act('complete', 'init', { v: 10 });
    const s = h.created('s');
    expect(s.pid).not.toBe(pid);
    await h.act('complete', 's', { v: 100 });
    expect(h.completed.map((m) => m.model.id)).toEqual(['sub']);
    const call = (await h.proc(pid)).tasks.find((t) => t.key === 'call')!;
    expect(call.state).toBe('completed');
    expect((h.created('final').inputs.params as { v: number }).v).toBe(100);
  });

  it('A15 subflow error, abort and skip come back to the calling act', async () => {
    await subflowModels();
    const p1 = await h.start('main');
    await h.act('complete', 'init', { v: 1 }, p1);
    await h.act('error', 's', { ecode: 'e' });
    const call1 = (await h.proc(p1)).tasks.find((t) => t.key === 'call')!;
    expect(call1.state).toBe('error');
    expect(call1.err?.ecode).toBe('e');

    const p2 = await h.start('main');
    await h.act('complete', 'init', { v: 1 }, p2);
    await h.act('abort', 's');
    expect((await h.proc(p2)).tasks.find((t) => t.key === 'call')!.state).toBe('aborted');
    expect((await h.proc(p2)).state).toBe('aborted');

    const p3 = await h.start('main');
    await h.act('complete', 'init', { v: 1 }, p3);
    await h.act('skip', 's');
    expect((await h.proc(p3)).tasks.find((t) => t.key === 'call')!.state).toBe('completed');
  });

  it('A15 a client closing the calling act (skip, complete) aborts the child; the caller goes on', async () => {
    await subflowModels();
    for (const action of ['skip', 'complete']) {
      const pid = await h.start('main');
      await h.act('complete', 'init', { v: 1 }, pid);
      const child = h.created('s').pid;
      const call = (await h.proc(pid)).tasks.find((t) => t.key === 'call')!;
      await h.engine.do({ pid, tid: call.tid, action, options: {} });
      await h.settle();
      expect((await h.proc(child)).state).toBe('aborted');
      expect((await h.proc(pid)).tasks.find((t) => t.key === 'final')?.state).toBe('interrupted');
      await h.act('complete', 'final', {}, pid);
      expect((await h.proc(pid)).state).toBe('completed');
    }
  });

  it('A15 unknown subflow target fails the process', async () => {
    await h.deploy(`
id: lost
steps:
  - { id: s1, acts: [ { uses: acts.core.subflow, params: { to: nowhere } } ] }
`);
    const pid = await h.start('lost');
    await h.settle();
    const detail = await h.proc(pid);
    expect(detail.state).toBe('error');
    expect(detail.err?.message).toMatch(/nowhere/);
  });

  it('A16 timeout fires once after its limit; the irq keeps waiting', async () => {
    await h.deploy(`
id: slow
steps:
  - id: s1
    acts:
      - uses: acts.core.irq
        key: a1
        timeout: [ { on: 2s, steps: [ { id: t1, acts: [ { uses: acts.core.msg, key: t } ] } ] } ]
`);
    const pid = await h.start('slow');
    await h.tick(1000);
    expect(h.find({ key: 't' })).toHaveLength(0);
    await h.tick(1000);
    expect(h.find({ key: 't', state: 'completed' })).toHaveLength(1);
    await h.tick(1000);
    await h.tick(1000);
    expect(h.find({ key: 't' })).toHaveLength(1);
    expect(await h.states(pid, h.created('a1').nid)).toEqual(['interrupted']);
  });

  it('A17 hooks fire at their lifecycle points', async () => {
    await h.deploy(`
id: hooks
setup:
  - { uses: acts.core.msg, on: completed, key: fin }
steps:
  - id: s1
    setup:
      - { uses: acts.core.msg, on: created, key: made }
      - { uses: acts.core.msg, on: before_update, key: before }
      - { uses: acts.core.msg, on: updated, key: after }
    acts:
      - { uses: acts.core.irq, key: a1 }
      - { uses: acts.core.irq, key: a2 }
`);
    const pid = await h.start('hooks');
    await h.act('complete', 'a1');
    await h.act('complete', 'a2');
    const count = (key: string) => h.find({ key, pid }).length;
    expect(count('made')).toBe(1);
    expect(count('before')).toBe(2);
    expect(count('after')).toBe(2);
    expect(count('fin')).toBe(1);
    const keys = seq(h, pid);
    expect(keys.indexOf('act/completed/fin')).toBeGreaterThan(keys.indexOf('workflow/completed/hooks'));
  });

  it('A18 variables: propagation, private keys, outputs, expose', async () => {
    await h.deploy(`
id: vars
inputs: { a: 1 }
env: { expose: [a] }
outputs: { r: '{{ a + 1 }}' }
steps:
  - id: s1
    inputs: { __p: x }
    acts:
      - { uses: acts.transform.set, key: setter, params: { a: 2, __p: y } }
      - { uses: acts.core.irq, key: look, params: { p: '{{ __p }}', a: '{{ a }}' } }
`);
    const pid = await h.start('vars');
    const root = (await h.proc(pid)).tasks.find((t) => t.tid === '$')!;
    expect(root.data.a).toBe(2);
    expect((await h.proc(pid)).tasks.find((t) => t.nid === 's1')!.data.__p).toBe('x');
    const look = h.created('look');
    expect(look.inputs.params).toEqual({ p: 'x', a: 2 });
    await h.act('complete', 'look');
    expect(h.completed[0].outputs.r).toBe(3);
    const stepDone = h.find({ type: 'step', state: 'completed', pid })[0];
    expect(stepDone.outputs.a).toBe(2);
    expect(stepDone.outputs).not.toHaveProperty('__p');
  });

  it('A19 expressions', async () => {
    await h.deploy(`
id: expr
inputs: { x: [1, 2], a: 1 }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: hello, params: { text: '{{ "hello" }} world', list: '{{ x }}', both: '{{ 1 }}-{{ 2 }}' } }
      - { uses: acts.core.irq, key: cond, if: '$get("missing") == null' }
      - { uses: acts.transform.code, key: code, params: 'return { y: a + 1 }' }
      - { uses: acts.core.irq, key: show, params: { y: '{{ y }}' } }
      - { uses: acts.transform.code, key: boom, params: 'throw new Error("kaput")' }
`);
    const pid = await h.start('expr');
    expect(h.created('hello').inputs.params).toEqual({ text: 'hello world', list: [1, 2], both: '1-2' });
    await h.act('complete', 'hello');
    expect(h.created('cond')).toBeTruthy();
    await h.act('complete', 'cond');
    expect((h.created('show').inputs.params as { y: number }).y).toBe(2);
    await h.act('complete', 'show');
    const boom = (await h.proc(pid)).tasks.find((t) => t.key === 'boom')!;
    expect(boom.state).toBe('error');
    expect(boom.err).toEqual({ ecode: '', message: expect.stringContaining('kaput') });
    expect((await h.proc(pid)).state).toBe('error');
  });

  it('A20 push adds an act the step waits for', async () => {
    await h.deploy(`
id: pusher
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] }
`);
    const pid = await h.start('pusher');
    const step = h.find({ type: 'step', state: 'created', key: 's1' })[0];
    await expect(h.engine.act.push(pid, step.tid, { key: 'x' })).rejects.toMatchObject({ code: 'action.invalid_options' });
    await h.engine.act.push(pid, step.tid, { uses: 'acts.core.irq', key: 'extra', tag: 't' });
    await h.settle();
    const extra = h.created('extra');
    expect(extra.tag).toBe('t');
    await h.act('complete', 'a1');
    expect(await h.states(pid, 's1')).toEqual(['running']);
    await h.act('complete', 'extra');
    expect(await h.states(pid, 's1')).toEqual(['completed']);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('A21 ack and redelivery per delivery row', async () => {
    // one engine per store at a time (SQLite is single-instance): replace the default one
    await h.close();
    const r = await createHarness({ store: borrowed(store()), maxMessageRetryTimes: 2 });
    h = r;
    {
      type Seen = { key: string; state: string; retry: number; delivery?: string };
      const received: Seen[] = [];
      r.engine.channel({ id: 'c1', ack: true }).onMessage((m) => void received.push({ key: m.key, state: m.state, retry: m.retry_times, delivery: m.delivery_id }));
      const other: number[] = [];
      r.engine.channel({ id: 'c2', ack: true, type: 'workflow' }).onMessage((m) => void other.push(m.retry_times));
      await r.deploy(`
id: acked
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 }, { uses: acts.core.irq, key: a2 } ] }
`);
      await r.start('acked');
      const wfCreated = () => received.filter((m) => m.key === 'acked' && m.state === 'created');
      const wfDelivery = wfCreated()[0].delivery!;
      const c2Delivery = (await r.engine.messages.deliveries({ filter: { type: 'and', exprs: [{ key: 'chan_id', op: 'eq', value: 'c2' }] } })).rows[0];
      expect(await r.engine.messages.ack(c2Delivery.id)).toBe(true);
      for (const m of received.filter((m) => m.key === 's1')) await r.engine.messages.ack(m.delivery!);

      // completing a1 settles the delivery of its `created` message; its `completed` message stays due
      await r.act('complete', 'a1');
      const a1Rows = (await r.engine.messages.deliveries()).rows.filter((d) => received.some((m) => m.key === 'a1' && m.delivery === d.id));
      expect(a1Rows.map((d) => d.status).sort()).toEqual(['completed', 'created']);
      const a2 = received.find((m) => m.key === 'a2')!;
      await r.engine.messages.ack(a2.delivery!);

      await r.tick(500);
      expect(wfCreated()).toHaveLength(1);
      await r.tick(1000);
      await r.tick(1000);
      expect(wfCreated().map((m) => m.retry)).toEqual([0, 1, 2]);
      expect(wfCreated().every((m) => m.delivery === wfDelivery)).toBe(true);
      expect(other).toEqual([0]);
      await r.tick(1000);
      expect(wfCreated()).toHaveLength(3);
      const row = (await r.engine.messages.deliveries()).rows.find((d) => d.id === wfDelivery)!;
      expect(row.status).toBe('error');
      expect(received.filter((m) => m.key === 'a2')).toHaveLength(1);
      expect(await r.engine.messages.redo()).toBeGreaterThanOrEqual(1);
      expect((await r.engine.messages.deliveries()).rows.find((d) => d.id === wfDelivery)!.status).toBe('created');
      expect(await r.engine.messages.ack('no-such-delivery')).toBe(false);
    }
  });

  it('A21 a delivery made before a restart is settled by the action after it, with no ack channel open', async () => {
    await h.close();
    const before = await createHarness({ store: borrowed(store()) });
    before.engine.channel({ id: 'c1', ack: true }).onMessage(() => undefined);
    await before.deploy('id: acked\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] } ]');
    const pid = await before.start('acked');
    const tid = before.created('a1').tid;
    await before.close();
    h = await createHarness({ store: borrowed(store()) });
    await h.settle();
    await h.engine.act.complete(pid, tid);
    await h.settle();
    const rows = (await h.engine.messages.deliveries()).rows.filter((d) => d.tid === tid);
    expect(rows.map((d) => d.status)).toEqual(['completed']);
  });

  it('A22 triggers: manual, hook, chat; bad trigger ids fail deploy', async () => {
    await h.deploy(`
id: evts
outputs: { data: null }
on:
  - { id: e1, uses: acts.event.manual }
  - { id: e2, uses: acts.event.hook }
  - { id: e3, uses: acts.event.chat }
steps:
  - { id: s1, acts: [ { uses: acts.transform.set, params: { seen: true } } ] }
`);
    expect((await h.engine.triggers.list()).rows.map((r) => r.id).sort()).toEqual(['evts:e1', 'evts:e2', 'evts:e3']);
    const started = await h.engine.triggers.start('evts:e1', {});
    expect(typeof started.pid).toBe('string');
    const outputs = await h.engine.triggers.start('evts:e2', { data: 'x' });
    expect(outputs).toEqual({ data: 'x' });
    const chat = await h.engine.triggers.start('evts:e3', 'hello there');
    await h.settle();
    expect((await h.proc(chat.pid as string)).tasks[0].data.data).toBe('hello there');
    await expect(h.deploy('id: d\non: [ { id: x, uses: acts.event.manual }, { id: x, uses: acts.event.manual } ]')).rejects.toMatchObject({ code: 'model.invalid' });
    await expect(h.deploy('id: d\non: [ { id: "", uses: acts.event.manual } ]')).rejects.toMatchObject({ code: 'model.invalid' });
  });

  it('A23 deploy and versioning', async () => {
    const yaml = 'id: v\nsteps: [ { id: s1 } ]\non: [ { id: go, uses: acts.event.manual } ]';
    for (let i = 0; i < 3; i++) await h.deploy(yaml);
    expect((await h.engine.models.get('v')).ver).toBe(3);
    expect((await h.engine.models.versions('v')).map((r) => r.ver)).toEqual([1, 2, 3]);
    await expect(h.deploy('steps: [ { id: s1 } ]')).rejects.toMatchObject({ code: 'model.invalid' });
    await expect(h.deploy('id: dup\nsteps: [ { id: s1 }, { id: s1 } ]')).rejects.toMatchObject({ code: 'model.invalid' });
    expect((await h.engine.triggers.list()).count).toBe(1);
    await h.engine.models.remove('v');
    expect((await h.engine.triggers.list()).count).toBe(0);
    await expect(h.engine.models.get('v')).rejects.toMatchObject({ code: 'model.not_found' });
  });

  it('A24 pid rules', async () => {
    await h.deploy('id: p\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] } ]');
    await h.engine.procs.start('p', { pid: 'p1' });
    await expect(h.engine.procs.start('p', { pid: 'p1' })).rejects.toMatchObject({ code: 'process.duplicate_pid' });
    await expect(h.engine.procs.start('p', { pid: '' })).rejects.toMatchObject({ code: 'process.invalid_pid' });
    await expect(h.engine.procs.start('p', { pid: 'a:b' })).rejects.toMatchObject({ code: 'process.invalid_pid' });
    await expect(h.engine.procs.start('nope', {})).rejects.toMatchObject({ code: 'model.not_found' });
  });

  it('A24 a pid that exists only in the store is a duplicate too, and its rows stay as they were', async () => {
    await h.deploy('id: p\nsteps: [ { id: s1 } ]');
    const row = { id: 'stored', state: 'completed', mid: 'p', name: 'kept', start_time: 1, end_time: 2, model: '', model_ver: 1, env: {}, err: null, parent_pid: null, parent_tid: null, timestamp: 1, owner: null, stuck_since: 0 };
    await store().procs.create(row);
    await expect(h.engine.procs.start('p', { pid: 'stored' })).rejects.toMatchObject({ code: 'process.duplicate_pid' });
    await h.engine.idle();
    expect(await store().procs.find('stored')).toMatchObject({ state: 'completed', name: 'kept', start_time: 1, end_time: 2 });
    expect((await store().tasks.query({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: 'stored' }] } })).count).toBe(0);
    expect((await h.engine.procs.start('p', { pid: 'fresh' })).pid).toBe('fresh');
  });
});
