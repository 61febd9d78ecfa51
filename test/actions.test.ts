/**
 * Client action refusals (spec 3.1–3.2, section 0): every refused action rejects with a stable
 * code and a reason, and leaves the process exactly as it was (states, data, messages).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.deploy(`
id: flow
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: a1, outputs: { ok: null } }
  - id: s2
    acts:
      - { uses: acts.core.irq, key: a2 }
      - { uses: acts.core.irq, key: a3 }
`);
});
afterEach(async () => {
  await h.close();
});

async function snapshot(pid: string) {
  await h.settle();
  const detail = await h.proc(pid);
  return { state: detail.state, tasks: detail.tasks.map((t) => [t.tid, t.state, JSON.stringify(t.data)]), messages: h.messages.length };
}

async function expectRefused(pid: string, call: () => Promise<unknown>, code: string, reason?: RegExp) {
  const before = await snapshot(pid);
  const rejection = expect(call()).rejects;
  await rejection.toMatchObject({ code });
  if (reason) await expect(call()).rejects.toThrow(reason);
  expect(await snapshot(pid)).toEqual(before);
}

describe('client action refusals', () => {
  it('unknown action, process, task; wrong task kind; bad options', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    const s1 = h.find({ type: 'step', key: 's1' })[0];
    await expectRefused(pid, () => h.engine.do({ pid, tid: a1.tid, action: 'approve' }), 'action.unknown', /unknown action 'approve'/);
    await expectRefused(pid, () => h.engine.act.complete('nope', a1.tid, { ok: 1 }), 'process.not_found');
    await expectRefused(pid, () => h.engine.act.complete(pid, 'nope', { ok: 1 }), 'task.not_found');
    await expectRefused(pid, () => h.engine.act.complete(pid, s1.tid), 'action.refused', /needs an act/);
    await expectRefused(pid, () => h.engine.act.push(pid, a1.tid, { uses: 'acts.core.irq' }), 'action.refused', /needs a step/);
    await expectRefused(pid, () => h.engine.do({ pid, tid: a1.tid, action: 'complete', options: [] as never }), 'action.invalid_options');
  });

  it('the outputs contract applies to complete and submit only', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await expectRefused(pid, () => h.engine.act.complete(pid, a1.tid, {}), 'action.invalid_options', /missing 'ok'/);
    await expectRefused(pid, () => h.engine.act.submit(pid, a1.tid, { other: 1 }), 'action.invalid_options');
    await h.engine.act.error(pid, a1.tid, { ecode: 'rejected' });
    await h.settle();
    expect((await h.proc(pid)).err).toEqual({ ecode: 'rejected', message: '' });
  });

  it('every action on a finished act is refused', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await h.engine.act.complete(pid, a1.tid, { ok: true });
    await h.settle();
    for (const action of ['complete', 'submit', 'skip', 'remove', 'abort', 'back', 'set-vars']) {
      await expectRefused(pid, () => h.engine.do({ pid, tid: a1.tid, action, options: { ok: 1, to: 's1' } }), 'action.refused', /already completed/);
    }
    await expectRefused(pid, () => h.engine.act.error(pid, a1.tid, { ecode: 'x' }), 'action.refused', /already completed/);
  });

  it('error needs an ecode string', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await expectRefused(pid, () => h.engine.act.error(pid, a1.tid, {}), 'action.invalid_options', /ecode/);
    await expectRefused(pid, () => h.engine.act.error(pid, a1.tid, { ecode: 42 }), 'action.invalid_options');
    await expectRefused(pid, () => h.engine.act.error(pid, a1.tid, { ecode: '' }), 'action.invalid_options');
  });

  it('back needs an earlier step on the path', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await expectRefused(pid, () => h.engine.act.back(pid, a1.tid, {}), 'action.invalid_options', /'to'/);
    await h.engine.act.complete(pid, a1.tid, { ok: true });
    await h.settle();
    const a2 = h.created('a2');
    await expectRefused(pid, () => h.engine.act.back(pid, a2.tid, { to: 'nowhere' }), 'action.refused', /no step 'nowhere'/);
    await expectRefused(pid, () => h.engine.act.back(pid, a2.tid, { to: 's3' }), 'action.refused');
  });

  it('cancel needs a completed act whose step completed and a waiting later step', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await expectRefused(pid, () => h.engine.act.cancel(pid, a1.tid), 'action.refused', /only a completed act/);
    await h.engine.act.complete(pid, a1.tid, { ok: true });
    await h.settle();
    const a2 = h.created('a2');
    await h.engine.act.complete(pid, a2.tid);
    await h.settle();
    await expectRefused(pid, () => h.engine.act.cancel(pid, a2.tid), 'action.refused', /still running/);
    const a3 = h.created('a3');
    await h.engine.act.complete(pid, a3.tid);
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
    await expectRefused(pid, () => h.engine.act.cancel(pid, a1.tid), 'action.refused', /already completed/);
  });

  it('push needs uses, a known package and a running step', async () => {
    const pid = await h.start('flow');
    const s1 = h.find({ type: 'step', key: 's1' })[0];
    await expectRefused(pid, () => h.engine.act.push(pid, s1.tid, {}), 'action.invalid_options', /uses/);
    await expectRefused(pid, () => h.engine.act.push(pid, s1.tid, { uses: 'acts.nope' }), 'package.unknown');
    await h.engine.act.complete(pid, h.created('a1').tid, { ok: 1 });
    await h.settle();
    await expectRefused(pid, () => h.engine.act.push(pid, s1.tid, { uses: 'acts.core.irq' }), 'action.refused', /already completed/);
  });

  it('nothing can be done in a finished process', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await h.engine.act.abort(pid, a1.tid);
    await h.settle();
    expect((await h.proc(pid)).state).toBe('aborted');
    await expectRefused(pid, () => h.engine.act.complete(pid, a1.tid, { ok: 1 }), 'action.refused', /already aborted/);
  });

  it('set-vars writes process variables without finishing the act', async () => {
    const pid = await h.start('flow');
    const a1 = h.created('a1');
    await h.engine.act.setVars(pid, a1.tid, { budget: 5 });
    await h.settle();
    const detail = await h.proc(pid);
    expect(detail.tasks.find((t) => t.tid === '$')!.data.budget).toBe(5);
    expect(detail.tasks.find((t) => t.tid === a1.tid)!.state).toBe('interrupted');
  });
});
