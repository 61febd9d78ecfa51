/**
 * Who may change a whole process (abort it, set its variables, push acts into it), over real HTTP
 * with real users on SQLite and PostgreSQL: only who may answer every open interrupt of the process
 * and of its running subflow children, and admins. An operator who may not answer a task cannot
 * decide it through `processes.setVars`, `processes.abort` or a task action on the root.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const APPROVAL = `id: approval
inputs: { approved: false }
steps:
  - id: s1
    branches:
      - { id: b1, if: "true", steps: [ { id: m, acts: [ { uses: acts.core.irq, key: manager, params: { assignees: [alice] } } ] } ] }
      - { id: b2, if: "true", steps: [ { id: a, acts: [ { uses: acts.core.irq, key: anyone } ] } ] }
  - id: s2
    acts:
      - { uses: acts.core.irq, key: last }
`;

const CHILD = `id: child
steps:
  - id: c1
    acts:
      - { uses: acts.core.irq, key: inner, params: { roles: [designer] } }
`;

const PARENT = `id: parent
steps:
  - id: p1
    acts:
      - { uses: acts.core.subflow, key: call, params: { to: child } }
`;

describe.each(['sqlite', 'postgresql'] as const)('process-wide changes need the right to answer every open task, on %s', (backend) => {
  let t: TestServer;

  async function start(mid: string): Promise<string> {
    const { pid } = await t.as('operator').processes.start.mutate({ mid, inputs: {} });
    await t.engine.idle();
    return pid;
  }

  async function open(pid: string, key: string): Promise<string> {
    const { tasks } = await t.as('viewer').processes.get.query({ pid });
    const task = tasks.find((x) => x.key === key && x.state === 'interrupted');
    if (!task) throw new Error(`no open task '${key}' in ${pid}`);
    return task.tid;
  }

  const state = async (pid: string) => (await t.as('viewer').processes.get.query({ pid })).process.state;
  const variables = async (pid: string) => (await t.as('viewer').processes.get.query({ pid })).variables;

  beforeAll(async () => {
    t = await startTestServer({ backend });
    for (const source of [APPROVAL, CHILD, PARENT]) await t.as('designer').models.deploy.mutate({ source });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an operator who may not answer an open task can neither set variables nor abort, by any procedure', async () => {
    const pid = await start('approval');
    const manager = await open(pid, 'manager');
    const anyone = await open(pid, 'anyone');
    const bob = t.as('bob');

    const setVars = await apiError(bob.processes.setVars.mutate({ pid, vars: { approved: true } }));
    expect(setVars).toMatchObject({ code: 'auth.forbidden', httpStatus: 403, details: { pid, tid: manager, assignees: ['alice'] } });
    expect(setVars.message).toContain(`assigned to user alice and 'bob' may not answer it, so may not change the whole process`);
    expect(await t.audit.last('proc.set_vars')).toMatchObject({ actor_name: 'bob', target: pid, result: 'auth.forbidden' });
    expect((await apiError(bob.processes.abort.mutate({ pid }))).code).toBe('auth.forbidden');
    // through the tasks router: the root, set-vars on an act bob may answer, abort of that act (it aborts the process)
    expect((await apiError(bob.tasks.setVars.mutate({ pid, tid: '$', options: { approved: true } }))).code).toBe('auth.forbidden');
    expect((await apiError(bob.tasks.abort.mutate({ pid, tid: '$' }))).code).toBe('auth.forbidden');
    expect((await apiError(bob.tasks.setVars.mutate({ pid, tid: anyone, options: { approved: true } }))).code).toBe('auth.forbidden');
    expect((await apiError(bob.tasks.abort.mutate({ pid, tid: anyone }))).code).toBe('auth.forbidden');
    const step = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.kind === 'step' && x.state === 'running')!;
    expect((await apiError(bob.tasks.push.mutate({ pid, tid: step.tid, options: { uses: 'acts.transform.set', key: 'sneak', params: { approved: true } } }))).code).toBe('auth.forbidden');
    await t.engine.idle();
    expect(await state(pid)).toBe('running');
    expect(await variables(pid)).toMatchObject({ approved: false });

    // bob still answers his own act; alice (who may answer every open task) and admins may change the process
    await bob.tasks.complete.mutate({ pid, tid: anyone });
    await t.as('alice').processes.setVars.mutate({ pid, vars: { note: 'by alice' } });
    await t.as('admin').processes.setVars.mutate({ pid, vars: { note: 'by admin' } });
    expect(await variables(pid)).toMatchObject({ approved: false, note: 'by admin' });
    await t.as('admin').processes.abort.mutate({ pid });
    await t.engine.idle();
    expect(await state(pid)).toBe('aborted');
  });

  it('once no open task is assigned to others, every operator may change the process again', async () => {
    const pid = await start('approval');
    await t.as('alice').tasks.complete.mutate({ pid, tid: await open(pid, 'manager') });
    await t.as('bob').tasks.complete.mutate({ pid, tid: await open(pid, 'anyone') });
    await t.engine.idle();
    await open(pid, 'last');
    await t.as('bob').processes.setVars.mutate({ pid, vars: { note: 'bob' } });
    expect(await variables(pid)).toMatchObject({ note: 'bob' });
    await t.as('bob').processes.abort.mutate({ pid });
    await t.engine.idle();
    expect(await state(pid)).toBe('aborted');
  });

  it('an open task of a running subflow child counts for its parent', async () => {
    const parent = await start('parent');
    const child = (await t.as('viewer').processes.list.query({ mid: 'child' })).rows.find((r) => r.state === 'running')!;
    const inner = await open(child.pid, 'inner');
    const refused = await apiError(t.as('operator').processes.abort.mutate({ pid: parent }));
    expect(refused).toMatchObject({ code: 'auth.forbidden', details: { pid: child.pid, tid: inner, roles: ['designer'] } });
    expect(refused.message).toContain(`(in its subflow '${child.pid}')`);
    expect(await state(parent)).toBe('running');
    await t.as('admin').processes.abort.mutate({ pid: parent });
    await t.engine.idle();
    expect(await state(parent)).toBe('aborted');
  });
});
