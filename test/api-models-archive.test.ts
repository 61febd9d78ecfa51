/**
 * API: archiving a model (issue 17 item 10) — an admin's action, audited, that hides the model
 * from the models list and refuses new starts with `model.archived`, while its running processes
 * go on and its versions and runs stay readable; un-archiving brings it back. Over real HTTP on
 * SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const model = `id: shelved
name: Shelved
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: check }
`;

describe.each(['sqlite', 'postgresql'] as const)('archiving a model on %s', (backend) => {
  let t: TestServer;
  let running: string;

  const listed = async (archived?: boolean) => (await t.as('viewer').models.list.query(archived === undefined ? {} : { archived })).rows.map((m) => m.id);

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: model });
    running = (await t.as('operator').processes.start.mutate({ mid: 'shelved' })).pid;
    await t.engine.idle();
  });
  afterAll(() => t?.close());

  it('is for admins only, and names a model that exists', async () => {
    expect((await apiError(t.as('designer').models.archive.mutate({ id: 'shelved' }))).code).toBe('auth.forbidden');
    expect((await apiError(t.as('admin').models.archive.mutate({ id: 'nothing-here' }))).code).toBe('model.not_found');
    expect(await listed()).toContain('shelved');
  });

  it('hides the model and refuses new starts with a coded sentence; running processes go on, history stays readable', async () => {
    const archived = await t.as('admin').models.archive.mutate({ id: 'shelved' });
    expect(archived.archived).toBeGreaterThan(0);
    expect(await t.audit.last('model.archive')).toMatchObject({ target: 'shelved', result: 'ok' });
    expect(await listed()).not.toContain('shelved');
    expect(await listed(true)).toEqual(['shelved']);

    const refused = await apiError(t.as('operator').processes.start.mutate({ mid: 'shelved' }));
    expect(refused).toMatchObject({ code: 'model.archived', httpStatus: 409 });
    expect(refused.message).toMatch(/model 'shelved' is archived/);

    // its history: the model's source and versions, its runs
    expect((await t.as('viewer').models.get.query({ id: 'shelved' })).source).toContain('Shelved');
    expect((await t.as('viewer').models.versions.query({ id: 'shelved' })).versions).toHaveLength(1);
    expect((await t.as('viewer').processes.list.query({ mid: 'shelved' })).count).toBe(1);

    // the running process goes on to its end
    const { tasks } = await t.as('viewer').processes.get.query({ pid: running });
    const open = tasks.find((x) => x.key === 'check' && x.state === 'interrupted')!;
    await t.as('operator').tasks.complete.mutate({ pid: running, tid: open.tid, options: {} });
    await t.engine.idle();
    expect((await t.as('viewer').processes.state.query({ pid: running })).state).toBe('completed');

    // a redeploy keeps the mark
    await t.as('designer').models.deploy.mutate({ source: model.replace('Shelved', 'Shelved again') });
    expect((await apiError(t.as('operator').processes.start.mutate({ mid: 'shelved' }))).code).toBe('model.archived');
  });

  it('un-archiving lists the model again and lets it start', async () => {
    await t.as('admin').models.unarchive.mutate({ id: 'shelved' });
    expect(await t.audit.last('model.unarchive')).toMatchObject({ target: 'shelved', result: 'ok' });
    expect(await listed()).toContain('shelved');
    expect(await listed(true)).toEqual([]);
    const started = await t.as('operator').processes.start.mutate({ mid: 'shelved' });
    expect(started.pid).toBeTruthy();
  });
});
