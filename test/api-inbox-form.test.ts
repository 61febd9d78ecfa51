/**
 * API additions for the studio's inbox and health pages: `inbox.form` (declared outputs, earlier
 * steps for `back`, open or not), `inbox.approvals` (own completed acts still withdrawable, with
 * what they approved) and
 * the delivery backlog in `health.get`, over real HTTP on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const chain = `id: chain
name: Two approvals
inputs: { amount: 5 }
steps:
  - id: first
    name: First approval
    acts:
      - uses: acts.core.irq
        key: one
        params: { title: 'Approve {{ amount }}', description: Look closely, schema: { properties: { ok: { type: boolean } } } }
        outputs: { ok: false, note: '' }
  - id: second
    name: Second approval
    acts:
      - { uses: acts.core.irq, key: two, params: { title: Again, assignees: [alice] } }
`;

let t: TestServer;

async function open(pid: string, key: string): Promise<string> {
  await t.engine.idle();
  const { tasks } = await t.as('viewer').processes.get.query({ pid });
  const task = tasks.find((x) => x.key === key && x.state === 'interrupted');
  if (!task) throw new Error(`no open task '${key}' in ${pid}`);
  return task.tid;
}

beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: chain });
});
afterAll(async () => {
  await t?.close();
});

describe('inbox.form', () => {
  it('describes the task: params, declared outputs, step, earlier steps, assignment; says when it is no longer open', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'chain' });
    const one = await open(pid, 'one');
    const form = await t.as('operator').inbox.form.query({ pid, tid: one });
    expect(form).toMatchObject({
      found: true,
      open: true,
      key: 'one',
      params: { title: 'Approve 5', description: 'Look closely' },
      outputs: { ok: false, note: '' },
      step: { id: 'first', name: 'First approval' },
      backTo: [],
      process: { mid: 'chain', name: 'Two approvals', state: 'running' },
      mayAct: true,
    });
    await t.as('operator').tasks.complete.mutate({ pid, tid: one, options: { ok: true, note: 'fine' } });
    const two = await open(pid, 'two');
    const second = await t.as('alice').inbox.form.query({ pid, tid: two });
    expect(second).toMatchObject({ open: true, outputs: {}, backTo: [{ id: 'first', name: 'First approval' }], assignment: { assignees: ['alice'] }, mayAct: true });
    expect(await t.as('operator').inbox.form.query({ pid, tid: two })).toMatchObject({ mayAct: false });
    expect(await t.as('operator').inbox.form.query({ pid, tid: one })).toMatchObject({ open: false, state: 'completed' });
    expect(await t.as('operator').inbox.form.query({ pid, tid: 'nope' })).toEqual({ found: false, pid, tid: 'nope' });
    expect((await apiError(t.as('viewer').inbox.form.query({ pid, tid: one }))).code).toBe('auth.forbidden');
  });
});

describe('inbox.list options', () => {
  it('newest first, with the step of each task', async () => {
    const a = (await t.as('operator').processes.start.mutate({ mid: 'chain' })).pid;
    await open(a, 'one');
    const b = (await t.as('operator').processes.start.mutate({ mid: 'chain' })).pid;
    await open(b, 'one');
    const list = await t.as('operator').inbox.list.query({ newestFirst: true, withSteps: true });
    const pids = list.rows.map((r) => r.pid);
    expect(pids.indexOf(b)).toBeLessThan(pids.indexOf(a));
    expect(list.rows.find((r) => r.pid === a)).toMatchObject({ step: { id: 'first', name: 'First approval' } });
    const plain = await t.as('operator').inbox.list.query({});
    expect(plain.rows.map((r) => r.pid).indexOf(a)).toBeLessThan(plain.rows.map((r) => r.pid).indexOf(b));
    expect(plain.rows[0]).not.toHaveProperty('step');
  });
});

describe('inbox.approvals', () => {
  it('lists own completed acts while the next step has not acted; cancel re-opens them; gone once the next step acts', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'chain' });
    const one = await open(pid, 'one');
    await t.as('operator').tasks.complete.mutate({ pid, tid: one, options: { ok: true, note: '' } });
    await open(pid, 'two');
    const mine = async (who: string) => (await t.as(who).inbox.approvals.query()).rows.filter((r) => r.pid === pid);
    expect(await mine('operator')).toMatchObject([
      { tid: one, key: 'one', model_name: 'Two approvals', step: { id: 'first' }, next: [{ id: 'second' }], params: { title: 'Approve 5' }, answer: { values: { ok: true, note: '' }, omitted: 0 } },
    ]);
    expect(await mine('admin')).toEqual([]);

    await t.as('operator').tasks.cancel.mutate({ pid, tid: one });
    const again = await open(pid, 'one');
    expect(again).not.toBe(one);
    expect(await mine('operator')).toEqual([]);

    await t.as('operator').tasks.complete.mutate({ pid, tid: again, options: { ok: true, note: '' } });
    const two = await open(pid, 'two');
    expect(await mine('operator')).toHaveLength(1);
    await t.as('alice').tasks.back.mutate({ pid, tid: two, options: { to: 'first' } });
    await open(pid, 'one');
    expect(await mine('operator')).toEqual([]);
    expect((await apiError(t.as('viewer').inbox.approvals.query())).code).toBe('auth.forbidden');
  });
});

describe('health.get', () => {
  it('counts the delivery backlog', async () => {
    const health = await t.as('viewer').health.get.query();
    expect(health.deliveries).toEqual({ created: expect.any(Number), error: expect.any(Number) });
    expect(health.time).toBeGreaterThan(0);
  });
});
