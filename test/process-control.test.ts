/**
 * Control of a running process (issue 14, engine/control.ts): pause and resume, breakpoints that
 * stop a process before a node starts, step over, and incidents (an act failing with no catch
 * held for an operator: retry or fail). Durable: a second engine on the same store keeps a
 * paused process paused and an incident open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../server/runtime/engine.ts';
import type { Store } from '../server/store/contract/types.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness as createEngineHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/** s1: an interrupt; s2: code that sets x; s3: an interrupt. */
const LINE = `id: line
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: a1 } ] }
  - { id: s2, acts: [ { id: c2, uses: acts.transform.code, params: "return { x: 2 }" } ] }
  - { id: s3, acts: [ { uses: acts.core.irq, key: a3 } ] }
`;

/** An act that fails unless `ok` is set, then an interrupt; incidents on. */
const FLAKY = `id: flaky
incidents: true
inputs: { ok: false }
steps:
  - id: s1
    acts:
      - id: f1
        uses: acts.transform.code
        params: "if (!ok) throw new Error('not ok yet'); return { done: true }"
  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }
`;

describe.each(BACKENDS)('process control on %s', (backend) => {
  const store = useTestStore(backend);
  const harness = async (options: EngineOptions = {}, on: Store = store()) => {
    const h = await createEngineHarness({ store: borrowed(on), ...options });
    open.push(h);
    return h;
  };
  const control = (h: Harness, pid: string, action: string, options = {}) => h.engine.do({ pid, tid: '$', action, options }).then(() => h.settle());

  it('pause holds the next node back until resume; the run then completes', async () => {
    const h = await harness();
    await h.deploy(LINE);
    const pid = await h.start('line');
    await control(h, pid, 'pause');
    expect((await h.proc(pid)).control.paused).toMatchObject({ reason: 'operator', tid: null });
    await h.act('complete', 'a1', {}, pid);
    // s1 completed, s2 was created but does not start while paused
    expect(await h.states(pid, 's1')).toEqual(['completed']);
    expect(await h.states(pid, 's2')).toEqual(['none']);
    await expect(control(h, pid, 'pause')).rejects.toMatchObject({ code: 'action.refused' });
    await control(h, pid, 'resume');
    expect(await h.states(pid, 'c2')).toEqual(['completed']);
    await h.act('complete', 'a3', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
    expect((await h.proc(pid)).control.paused).toBeNull();
  });

  it('a breakpoint stops before its node; step over runs it and stops at the next; resume goes on', async () => {
    const h = await harness();
    await h.deploy(LINE);
    const pid = await h.start('line');
    await control(h, pid, 'set_breakpoints', { nodes: ['s2'] });
    await h.act('complete', 'a1', {}, pid);
    const at = (await h.proc(pid)).control.paused;
    expect(at).toMatchObject({ reason: 'breakpoint', nid: 's2' });
    expect(await h.states(pid, 's2')).toEqual(['none']);
    // variables may be edited while paused
    await control(h, pid, 'set_process_vars', { note: 'edited' });
    await control(h, pid, 'step_over');
    // s2 ran with everything in it (c2), and s3 stopped before it started
    expect(await h.states(pid, 'c2')).toEqual(['completed']);
    expect((await h.proc(pid)).control.paused).toMatchObject({ reason: 'step', nid: 's3' });
    expect(await h.states(pid, 's3')).toEqual(['none']);
    await control(h, pid, 'resume');
    expect(await h.states(pid, 's3')).toEqual(['running']);
    await h.act('complete', 'a3', {}, pid);
    const done = await h.proc(pid);
    expect(done.state).toBe('completed');
    expect(done.tasks.find((t) => t.tid === '$')?.data).toMatchObject({ x: 2, note: 'edited' });
  });

  it('control actions are refused on another task than the root, and bad breakpoints are refused', async () => {
    const h = await harness();
    await h.deploy(LINE);
    const pid = await h.start('line');
    const a1 = h.created('a1', pid);
    await expect(h.engine.do({ pid, tid: a1.tid, action: 'pause', options: {} })).rejects.toMatchObject({ code: 'action.refused' });
    await expect(control(h, pid, 'set_breakpoints', { nodes: 's2' })).rejects.toMatchObject({ code: 'action.invalid_options' });
    await expect(control(h, pid, 'resume')).rejects.toMatchObject({ code: 'action.refused' });
    expect((await h.proc(pid)).control).toMatchObject({ paused: null, breakpoints: [] });
  });

  it('a paused process stays paused across a restart, and resumes on the new engine', async () => {
    const first = await harness();
    await first.deploy(LINE);
    const pid = await first.start('line');
    await control(first, pid, 'set_breakpoints', { nodes: ['s2'] });
    await first.act('complete', 'a1', {}, pid);
    expect((await first.proc(pid)).control.paused).toMatchObject({ reason: 'breakpoint' });
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await harness();
    await second.settle();
    const after = await second.proc(pid);
    expect(after.control.paused).toMatchObject({ reason: 'breakpoint', nid: 's2' });
    expect(await second.states(pid, 's2')).toEqual(['none']);
    await control(second, pid, 'resume');
    expect(await second.states(pid, 'c2')).toEqual(['completed']);
    expect(await second.states(pid, 's3')).toEqual(['running']);
  });

  it('the stored control follows every change: a step over then its pause survive a restart', async () => {
    const first = await harness();
    await first.deploy(LINE);
    const pid = await first.start('line');
    await control(first, pid, 'pause');
    await first.act('complete', 'a1', {}, pid);
    await control(first, pid, 'step_over');
    expect((await first.proc(pid)).control.paused).toMatchObject({ reason: 'step', nid: 's3' });
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await harness();
    await second.settle();
    expect((await second.proc(pid)).control.paused).toMatchObject({ reason: 'step', nid: 's3' });
    expect(await second.states(pid, 'c2')).toEqual(['completed']);
    expect(await second.states(pid, 's3')).toEqual(['none']);
  });

  it('a step over recorded before a crash and applied by recovery lets the held task through', async () => {
    let armed = false;
    const on = store();
    const first = await harness({
      faults: (point) => {
        if (armed && point === 'action:recorded') {
          armed = false;
          throw new Error(`crash at ${point}`);
        }
      },
    }, on);
    await first.deploy(LINE);
    const pid = await first.start('line');
    await control(first, pid, 'set_breakpoints', { nodes: ['s2'] });
    await first.act('complete', 'a1', {}, pid);
    expect((await first.proc(pid)).control.paused).toMatchObject({ reason: 'breakpoint', nid: 's2' });
    armed = true;
    await expect(first.engine.do({ pid, tid: '$', action: 'step_over', options: {} })).rejects.toThrow('crash at action:recorded');
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await harness({}, on);
    await second.settle();
    expect(await second.states(pid, 'c2')).toEqual(['completed']);
    expect((await second.proc(pid)).control.paused).toMatchObject({ reason: 'step', nid: 's3' });
  });

  it('an uncaught act failure is an incident: the run waits; retry after fixing variables continues it', async () => {
    const h = await harness();
    await h.deploy(FLAKY);
    const pid = await h.start('flaky');
    let proc = await h.proc(pid);
    expect(proc.state).toBe('running');
    expect(proc.control.incidents).toMatchObject([{ nid: 'f1', ecode: '', message: expect.stringContaining('not ok yet') }]);
    const failed = proc.control.incidents[0].tid;
    expect(proc.tasks.find((t) => t.tid === failed)?.state).toBe('error');
    await control(h, pid, 'set_process_vars', { ok: true });
    await control(h, pid, 'retry', { tid: failed });
    proc = await h.proc(pid);
    expect(proc.control.incidents).toEqual([]);
    expect(await h.states(pid, 'f1')).toEqual(['error', 'completed']);
    await h.act('complete', 'a2', {}, pid);
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('an incident under a step that closed (a back to an earlier step) is no longer open', async () => {
    const h = await harness();
    await h.deploy(`id: stale
incidents: true
steps:
  - { id: s0, acts: [ { uses: acts.core.irq, key: a0 } ] }
  - id: s1
    branches:
      - { id: b1, if: "true", steps: [ { id: s1a, acts: [ { id: f1, uses: acts.transform.code, params: "throw new Error('boom')" } ] } ] }
      - { id: b2, if: "true", steps: [ { id: s1b, acts: [ { uses: acts.core.irq, key: a2 } ] } ] }
`);
    const pid = await h.start('stale');
    await h.act('complete', 'a0', {}, pid);
    const incident = (await h.proc(pid)).control.incidents[0];
    expect(incident).toMatchObject({ nid: 'f1' });
    await h.act('back', 'a2', { to: 's0' }, pid);
    const proc = await h.proc(pid);
    expect(proc.state).toBe('running');
    expect(proc.control.incidents).toEqual([]);
    await expect(control(h, pid, 'retry', { tid: incident.tid })).rejects.toMatchObject({ code: 'action.refused' });
  });

  it('fail lets the error of an incident go on: the process ends in error', async () => {
    const h = await harness();
    await h.deploy(FLAKY);
    const pid = await h.start('flaky');
    const tid = (await h.proc(pid)).control.incidents[0].tid;
    await expect(control(h, pid, 'retry', { tid: 'nope' })).rejects.toMatchObject({ code: 'action.refused' });
    await control(h, pid, 'fail', { tid });
    const proc = await h.proc(pid);
    expect(proc.state).toBe('error');
    expect(proc.err?.message).toContain('not ok yet');
  });

  it('incidents stay off by default (the spec), and a catch that handles the error wins', async () => {
    const h = await harness();
    await h.deploy(FLAKY.replace('incidents: true\n', ''));
    const plain = await h.start('flaky');
    expect((await h.proc(plain)).state).toBe('error');
    const caught = FLAKY.replace('id: flaky', 'id: caught').replace('  - id: s1\n', '  - id: s1\n    catches: [ { steps: [] } ]\n');
    await h.deploy(caught);
    const pid = await h.start('caught');
    expect((await h.proc(pid)).control.incidents).toEqual([]);
  });

  it('the server-wide setting turns incidents on; an incident survives a restart', async () => {
    const first = await harness({ incidents: true });
    await first.deploy(FLAKY.replace('incidents: true\n', ''));
    const pid = await first.start('flaky');
    const tid = (await first.proc(pid)).control.incidents[0].tid;
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await harness({ incidents: true });
    await second.settle();
    expect((await second.proc(pid)).control.incidents).toMatchObject([{ tid }]);
    expect((await second.proc(pid)).state).toBe('running');
    await control(second, pid, 'set_process_vars', { ok: true });
    await control(second, pid, 'retry', { tid });
    await second.act('complete', 'a2', {}, pid);
    expect((await second.proc(pid)).state).toBe('completed');
  });
});
