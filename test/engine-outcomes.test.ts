/**
 * Declared outcomes in the engine (issue 17 item 5), beyond the API test: a run that ended on an
 * outcome goes out through `on_complete` (not `on_error`) and fires the workflow's `completed`
 * hooks, which can test `outcome`; a subflow child that ended on one completes its calling act
 * with `{ outcome }`, so the parent can branch on it; outcomes a template decides are checked by
 * the irq params schema when the act runs (`params.invalid`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

const CHILD = `id: child
steps:
  - id: ask
    acts:
      - uses: acts.core.irq
        key: decide
        params: { title: 'Go?', outcomes: { go: {}, stop: { label: Stop, ecode: stopped } } }
setup:
  - { uses: acts.core.msg, on: completed, key: told, params: { text: "{{ typeof outcome === 'undefined' ? 'done' : 'ended on ' + outcome }}" } }
`;

const PARENT = `id: parent
steps:
  - id: call
    acts:
      - { uses: acts.core.subflow, params: { to: child } }
  - id: after
    branches:
      - id: stopped
        if: outcome == 'stop'
        steps: [ { id: stopped_step, acts: [ { uses: acts.core.msg, key: saw_stop } ] } ]
      - id: other
        else: true
        steps: [ { id: other_step, acts: [ { uses: acts.core.msg, key: saw_other } ] } ]
`;

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.deploy(CHILD);
  await h.deploy(PARENT);
});
afterEach(async () => {
  await h.close();
});

describe('a run that ended on an outcome', () => {
  it('goes out as complete, not error, and its completed hook sees the outcome', async () => {
    const pid = await h.start('child');
    await h.act('outcome', 'decide', { outcome: 'stop' }, pid);
    expect(await h.proc(pid)).toMatchObject({ state: 'completed', outcome: 'stop', err: null, outputs: { outcome: 'stop' } });
    expect(h.completed.map((m) => m.pid)).toContain(pid);
    expect(h.errored.map((m) => m.pid)).not.toContain(pid);
    expect(h.find({ key: 'told', pid, state: 'completed' }).map((m) => m.inputs.params)).toEqual([{ text: 'ended on stop' }]);
  });

  it('a subflow child that ended on an outcome completes its act with it; the parent branches on it', async () => {
    const pid = await h.start('parent');
    const child = h.created('decide');
    expect(child.pid).not.toBe(pid);
    await h.act('outcome', 'decide', { outcome: 'stop' }, child.pid);
    const parent = await h.proc(pid);
    expect(parent).toMatchObject({ state: 'completed', outcome: null, err: null });
    expect(h.find({ key: 'saw_stop', pid, state: 'completed' })).toHaveLength(1);
    expect(h.find({ key: 'saw_other', pid })).toHaveLength(0);
  });

  it('outcomes a template decides are checked when the act runs', async () => {
    await h.deploy(`id: templated
inputs: { choices: [approve, reject] }
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: ask, params: { title: 'Pick', outcomes: '{{ choices }}' } }
`);
    const pid = await h.start('templated');
    const proc = await h.proc(pid);
    expect(proc.state).toBe('error');
    expect(proc.err?.message).toMatch(/params of 'acts\.core\.irq' are invalid: \/outcomes must be object/);
  });
});
