/**
 * API: processes (start, list, get, abort, set-vars), tasks (every client action, assignment
 * checks, engine refusals) and the inbox, over real HTTP on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const approval = `id: approval
name: Approval
inputs: { amount: 10 }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: manager, params: { title: 'Approve {{ amount }}', assignees: [alice] } }
  - id: s2
    acts:
      - { uses: acts.core.irq, key: anyone, params: { title: Anyone } }
  - id: s3
    acts:
      - { uses: acts.core.irq, key: admins, params: { title: Admins only, roles: [admin] } }
`;

const flow = `id: flow
name: Flow
steps:
  - id: a
    acts:
      - { uses: acts.core.irq, key: a1 }
      - { uses: acts.core.irq, key: a2 }
  - id: b
    acts:
      - { uses: acts.core.irq, key: b1 }
`;

describe.each(['sqlite', 'postgresql'] as const)('API processes, tasks and inbox on %s', (backend) => {
  let t: TestServer;

  async function start(mid: string, inputs = {}): Promise<string> {
    const proc = await t.as('operator').processes.start.mutate({ mid, inputs });
    await t.engine.idle();
    return proc.pid;
  }

  /** The tid of the open task of an act key. */
  async function open(pid: string, key: string): Promise<string> {
    const { tasks } = await t.as('viewer').processes.get.query({ pid });
    const task = tasks.find((x) => x.key === key && x.state === 'interrupted');
    if (!task) throw new Error(`no open task '${key}' in ${pid}: ${tasks.map((x) => `${x.key}=${x.state}`).join(', ')}`);
    return task.tid;
  }

  async function stateOf(pid: string, tid: string): Promise<string> {
    return (await t.as('viewer').tasks.get.query({ pid, tid })).task.state;
  }

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: approval });
    await t.as('designer').models.deploy.mutate({ source: flow });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('processes', () => {
    it('starts with the caller as owner; refuses the unauthenticated, viewers, unknown models and bad inputs', async () => {
      const proc = await t.as('operator').processes.start.mutate({ mid: 'approval', inputs: { amount: 7 } });
      expect(proc).toMatchObject({ mid: 'approval', owner: t.users.operator.id });
      expect(await t.audit.last('proc.start')).toMatchObject({ actor_name: 'operator', target: 'approval', result: 'ok' });
      expect(await apiError(t.as('anon').processes.start.mutate({ mid: 'approval' }))).toMatchObject({ code: 'auth.required', httpStatus: 401 });
      expect(await apiError(t.as('viewer').processes.start.mutate({ mid: 'approval' }))).toMatchObject({ code: 'auth.forbidden', httpStatus: 403 });
      expect(await apiError(t.as('operator').processes.start.mutate({ mid: 'nope' }))).toMatchObject({ code: 'model.not_found', httpStatus: 404 });
      expect(await t.audit.last('proc.start')).toMatchObject({ target: 'nope', result: 'model.not_found' });
      expect((await apiError(t.as('operator').processes.start.mutate({ mid: 'approval', inputs: [1] as never }))).code).toBe('input.invalid');
      const big = { blob: 'x'.repeat(65 * 1024) };
      expect(await apiError(t.as('operator').processes.start.mutate({ mid: 'approval', inputs: big }))).toMatchObject({ code: 'input.too_large', httpStatus: 413 });
    });

    it('lists with filters, paging and sort, and returns a cursor', async () => {
      await start('flow');
      await t.engine.idle();
      const viewer = t.as('viewer');
      const all = await viewer.processes.list.query({});
      expect(all.count).toBeGreaterThanOrEqual(2);
      expect(all.cursor).toBeGreaterThan(0);
      expect(all.rows[0]).not.toHaveProperty('model');
      const flows = await viewer.processes.list.query({ mid: 'flow', state: 'running' });
      expect(flows.rows.every((r) => r.mid === 'flow' && r.state === 'running')).toBe(true);
      const page = await viewer.processes.list.query({ limit: 1, offset: 0, sort: { field: 'start_time', order: 'asc' } });
      expect(page.rows).toHaveLength(1);
      expect(page.rows[0].mid).toBe('approval');
      expect((await apiError(viewer.processes.list.query({ limit: 100_000 }))).code).toBe('input.invalid');
      expect((await apiError(viewer.processes.list.query({ sort: { field: 'model' as never, order: 'asc' } }))).code).toBe('input.invalid');
    });

    it('gets one process with its task tree, variables, messages and timeline', async () => {
      const pid = await start('approval', { amount: 42 });
      const detail = await t.as('viewer').processes.get.query({ pid });
      expect(detail.process).toMatchObject({ pid, state: 'running', mid: 'approval' });
      expect(detail.variables).toMatchObject({ amount: 42 });
      expect(detail.tree).toHaveLength(1);
      expect(detail.tree[0]).toMatchObject({ tid: '$', kind: 'workflow' });
      expect(detail.tree[0].children[0]).toMatchObject({ kind: 'step', nid: 's1' });
      expect(detail.messages.rows.some((m) => m.key === 'manager' && m.state === 'created')).toBe(true);
      expect(detail.timeline.length).toBe(detail.messages.rows.length);
      expect((await apiError(t.as('viewer').processes.get.query({ pid: 'missing' }))).code).toBe('process.not_found');
    });

    it('sets variables and aborts (operators); refuses again once finished', async () => {
      const pid = await start('flow');
      expect((await apiError(t.as('viewer').processes.setVars.mutate({ pid, vars: { x: 1 } }))).code).toBe('auth.forbidden');
      await t.as('operator').processes.setVars.mutate({ pid, vars: { note: 'hi' } });
      expect((await t.as('viewer').processes.get.query({ pid })).variables).toMatchObject({ note: 'hi' });
      await t.as('operator').processes.abort.mutate({ pid });
      await t.engine.idle();
      expect((await t.as('viewer').processes.get.query({ pid })).process.state).toBe('aborted');
      const again = await apiError(t.as('operator').processes.abort.mutate({ pid }));
      expect(again.code).toBe('action.refused');
      expect(again.httpStatus).toBe(409);
      expect(await t.audit.last('proc.abort')).toMatchObject({ target: pid, result: 'action.refused' });
    });
  });

  describe('inbox and assignment', () => {
    it('shows each operator the tasks they may act on; refuses non-assignees; a double complete changes nothing', async () => {
      const pid = await start('approval');
      const manager = await open(pid, 'manager');
      const mine = (name: string) => t.as(name).inbox.list.query({}).then((r) => r.rows.filter((i) => i.pid === pid).map((i) => i.key));
      expect(await mine('alice')).toEqual(['manager']);
      expect(await mine('bob')).toEqual([]);
      expect(await mine('admin')).toEqual(['manager']);
      expect((await apiError(t.as('viewer').inbox.list.query({}))).code).toBe('auth.forbidden');
      const item = (await t.as('alice').inbox.list.query({})).rows.find((i) => i.pid === pid)!;
      expect(item).toMatchObject({ params: { title: 'Approve 10', assignees: ['alice'] }, mid: 'approval', model_name: 'Approval' });

      const refused = await apiError(t.as('bob').tasks.complete.mutate({ pid, tid: manager }));
      expect(refused).toMatchObject({ code: 'auth.forbidden', details: { assignees: ['alice'] } });
      expect(await stateOf(pid, manager)).toBe('interrupted');
      expect(await t.audit.last('task.complete')).toMatchObject({ actor_name: 'bob', target: `${pid}/${manager}`, result: 'auth.forbidden' });
      expect((await t.as('bob').tasks.get.query({ pid, tid: manager })).mayAct).toBe(false);

      await t.as('alice').tasks.complete.mutate({ pid, tid: manager, options: { ok: true } });
      expect(await stateOf(pid, manager)).toBe('completed');
      const twice = await apiError(t.as('alice').tasks.complete.mutate({ pid, tid: manager }));
      expect(twice).toMatchObject({ code: 'action.refused', httpStatus: 409 });
      expect(await stateOf(pid, manager)).toBe('completed');
      await t.engine.idle();

      const anyone = await open(pid, 'anyone');
      expect(await mine('bob')).toEqual(['anyone']);
      expect((await apiError(t.as('viewer').tasks.complete.mutate({ pid, tid: anyone }))).code).toBe('auth.forbidden');
      await t.as('bob').tasks.complete.mutate({ pid, tid: anyone });
      await t.engine.idle();

      const admins = await open(pid, 'admins');
      expect(await mine('alice')).toEqual([]);
      expect((await apiError(t.as('alice').tasks.complete.mutate({ pid, tid: admins }))).code).toBe('auth.forbidden');
      await t.as('admin').tasks.complete.mutate({ pid, tid: admins });
      await t.engine.idle();
      expect((await t.as('viewer').processes.get.query({ pid })).process.state).toBe('completed');
    });

    it('refuses unknown tasks and processes with their codes', async () => {
      const pid = await start('flow');
      expect((await apiError(t.as('operator').tasks.complete.mutate({ pid, tid: 'nope' }))).code).toBe('task.not_found');
      expect((await apiError(t.as('operator').tasks.complete.mutate({ pid: 'nope', tid: 'x' }))).code).toBe('process.not_found');
      expect((await apiError(t.as('operator').tasks.complete.mutate({ pid, tid: 'x', options: 'str' as never }))).code).toBe('input.invalid');
    });
  });

  describe('client actions', () => {
    it('submit, skip and remove close the act', async () => {
      for (const [action, state] of [['submit', 'submitted'], ['skip', 'skipped'], ['remove', 'removed']] as const) {
        const pid = await start('flow');
        const a1 = await open(pid, 'a1');
        await t.as('operator').tasks[action].mutate({ pid, tid: a1, options: { via: action } });
        expect(await stateOf(pid, a1)).toBe(state);
        expect(await t.audit.last(`task.${action}`)).toMatchObject({ actor_name: 'operator', target: `${pid}/${a1}`, result: 'ok' });
      }
    });

    it('back returns to an earlier step; cancel undoes a completed act; push adds an act to a running step', async () => {
      const op = t.as('operator');
      const toB = async () => {
        const pid = await start('flow');
        await op.tasks.complete.mutate({ pid, tid: await open(pid, 'a1') });
        await t.engine.idle();
        await op.tasks.complete.mutate({ pid, tid: await open(pid, 'a2') });
        await t.engine.idle();
        return { pid, b1: await open(pid, 'b1') };
      };
      const back = await toB();
      await op.tasks.back.mutate({ pid: back.pid, tid: back.b1, options: { to: 'a' } });
      await t.engine.idle();
      expect(await stateOf(back.pid, back.b1)).toBe('backed');
      expect(await open(back.pid, 'a1')).toBeTruthy();

      const cancel = await toB();
      const a2 = (await t.as('viewer').processes.get.query({ pid: cancel.pid })).tasks.find((x) => x.key === 'a2')!;
      await op.tasks.cancel.mutate({ pid: cancel.pid, tid: a2.tid });
      await t.engine.idle();
      expect(await stateOf(cancel.pid, cancel.b1)).toBe('cancelled');

      const pid = await start('flow');
      const step = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.kind === 'step' && x.nid === 'a')!;
      await op.tasks.push.mutate({ pid, tid: step.tid, options: { uses: 'acts.core.irq', key: 'pushed' } });
      await t.engine.idle();
      expect(await open(pid, 'pushed')).toBeTruthy();
    });

    it('passes the engine refusal reasons through: error without ecode, back to an unknown step, cancel of an open act', async () => {
      const op = t.as('operator');
      const pid = await start('flow');
      const a1 = await open(pid, 'a1');
      expect(await apiError(op.tasks.error.mutate({ pid, tid: a1 }))).toMatchObject({ code: 'action.invalid_options', httpStatus: 400 });
      expect((await apiError(op.tasks.back.mutate({ pid, tid: a1, options: { to: 'zzz' } }))).code).toBe('action.refused');
      expect((await apiError(op.tasks.cancel.mutate({ pid, tid: a1 }))).message).toMatch(/only a completed act can be cancelled/);
      expect(await stateOf(pid, a1)).toBe('interrupted');
      await op.tasks.error.mutate({ pid, tid: a1, options: { ecode: 'rejected' } });
      await t.engine.idle();
      expect((await t.as('viewer').processes.get.query({ pid })).process.state).toBe('error');
    });

    it('aborts the process from a task', async () => {
      const pid = await start('flow');
      await t.as('operator').tasks.abort.mutate({ pid, tid: await open(pid, 'a1') });
      await t.engine.idle();
      expect((await t.as('viewer').processes.get.query({ pid })).process.state).toBe('aborted');
    });
  });
});
