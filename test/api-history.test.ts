/**
 * API for time-travel replay (server/api/routers/history.ts): `history.run` gives a viewer the
 * run's span, its model version (the one it ran, not a newer deploy; `processes.model` too), its
 * messages, the audited actions on it and its tasks with who sent them and the names they
 * carried (never the values), and its subflow children; `history.variables` gives the process
 * variables and a task's data at a moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, waitingTask, type TestServer } from './helpers/server.ts';

const v1 = `id: replayed
name: Replayed
inputs: { amount: 5 }
steps:
  - id: calc
    acts:
      - { id: total, uses: acts.transform.set, params: { total: '{{ amount * 10 }}' } }
  - id: approve
    acts:
      - { id: ask, uses: acts.core.irq, key: ask }
`;

/** A workflow of one step `step` holding one act (a flow-mapping YAML line). */
const oneAct = (id: string, step: string, act: string) => `id: ${id}\nsteps:\n  - id: ${step}\n    acts:\n      - ${act}\n`;
const child = oneAct('replayed-child', 'wait', '{ id: hold, uses: acts.core.irq, key: hold }');
const parent = oneAct('replayed-parent', 'call', '{ id: sub, uses: acts.core.subflow, params: { to: replayed-child } }');

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  const designer = t.as('designer');
  await designer.models.deploy.mutate({ source: v1 });
  await designer.models.deploy.mutate({ source: child });
  await designer.models.deploy.mutate({ source: parent });
});
afterAll(async () => {
  await t?.close();
});

describe('history.run', () => {
  it('gives a viewer the version the run ran, its messages and the actions with who sent them and their names', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'replayed' });
    const { task: ask } = await waitingTask(t, pid, 'ask');
    await t.as('operator').processes.setVars.mutate({ pid, vars: { note: 'secret-ish value' } });
    await t.as('alice').tasks.complete.mutate({ pid, tid: ask!.tid, options: { approved: true } });
    await t.engine.procs.wait(pid);
    await t.as('designer').models.deploy.mutate({ source: v1.replace('name: Replayed', 'name: Replayed again') });

    const history = await t.as('viewer').history.run.query({ pid });
    expect(history.process).toMatchObject({ pid, mid: 'replayed', ver: 1, state: 'completed' });
    expect(history.process.end_time).toBeGreaterThanOrEqual(history.process.start_time);
    const model = await t.as('viewer').processes.model.query({ pid });
    expect(model).toMatchObject({ ver: 1, source: v1 });

    expect(history.actions.rows.map((a) => [a.action, a.actor, a.tid, a.keys, a.result])).toEqual([
      ['proc.set_vars', 'operator', null, ['note'], 'ok'],
      ['task.complete', 'alice', ask!.tid, ['approved'], 'ok'],
    ]);
    expect(JSON.stringify(history.actions)).not.toContain('secret-ish value');
    expect(history.messages.count).toBe(history.messages.rows.length);
    expect(history.messages.rows.some((m) => m.tid === ask!.tid)).toBe(true);
    const times = history.messages.rows.map((m) => m.create_time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(history.children).toEqual([]);
  });

  it('lists the subflow children, to open one at the same moment', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'replayed-parent' });
    await t.engine.idle();
    const { children } = await t.as('viewer').history.run.query({ pid });
    expect(children).toHaveLength(1);
    const sub = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'sub')!;
    expect(children[0]).toMatchObject({ tid: sub.tid, mid: 'replayed-child', state: 'running' });
  });

  it('answers process.not_found for an unknown run, and nothing without credentials', async () => {
    expect((await apiError(t.as('viewer').history.run.query({ pid: 'no-such-run' }))).code).toBe('process.not_found');
    expect((await apiError(t.as('anon').history.run.query({ pid: 'no-such-run' }))).code).toBe('auth.required');
  });
});

describe('history.variables', () => {
  it('gives the process variables and a task state and data at a moment', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'replayed', inputs: { amount: 7 } });
    const { task: ask } = await waitingTask(t, pid, 'ask');
    await t.as('operator').tasks.complete.mutate({ pid, tid: ask!.tid, options: { approved: true } });
    await t.engine.procs.wait(pid);
    const done = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.tid === ask!.tid)!;

    const before = await t.as('viewer').history.variables.query({ pid, at: done.end_time - 1, tid: done.tid });
    expect(before.variables).toMatchObject({ amount: 7, total: 70 });
    expect(before.variables).not.toHaveProperty('approved');
    expect(before.task).toMatchObject({ tid: done.tid, state: 'running' });
    expect(before.task!.data).not.toHaveProperty('approved');

    const after = await t.as('viewer').history.variables.query({ pid, at: done.end_time, tid: done.tid });
    expect(after.variables).toMatchObject({ amount: 7, total: 70, approved: true });
    expect(after.task).toMatchObject({ state: 'completed', data: expect.objectContaining({ approved: true }) });

    const early = await t.as('viewer').history.variables.query({ pid, at: done.start_time - 1_000_000, tid: done.tid });
    expect(early.task).toMatchObject({ state: null, data: null });
    expect((await apiError(t.as('viewer').history.variables.query({ pid, at: 0, tid: 'nope' }))).code).toBe('task.not_found');
  });
});
