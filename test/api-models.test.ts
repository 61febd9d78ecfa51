/** API: models (validate, deploy, list with versions, get, diff, remove, export, import) over real HTTP on SQLite and PostgreSQL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const v1 = `id: expense
name: Expense
steps:
  - id: review
    acts:
      - { uses: acts.core.irq, key: approve, params: { title: Approve? } }
`;
const v2 = v1.replace('name: Expense', 'name: Expense claim').replace('title: Approve?', 'title: Approve now?');

describe.each(['sqlite', 'postgresql'] as const)('API models on %s', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('models', () => {
    it('validates without deploying: problems with their paths; designers only', async () => {
      const ok = await t.as('designer').models.validate.mutate({ source: v1 });
      expect(ok).toEqual({ valid: true, problems: [], warnings: [] });
      const bad = await t.as('designer').models.validate.mutate({ source: 'id: x\nsteps:\n  - acts: [{ uses: 42 }]\n' });
      expect(bad.valid).toBe(false);
      expect(bad.problems[0]).toMatchObject({ code: expect.any(String), path: expect.stringContaining('uses') });
      expect((await apiError(t.as('operator').models.validate.mutate({ source: v1 }))).code).toBe('auth.forbidden');
      expect((await t.as('viewer').models.list.query()).count).toBe(0);
    });

    it('deploys versions, lists them, gets one, diffs two, exports; audit records the deploys', async () => {
      const designer = t.as('designer');
      expect(await designer.models.deploy.mutate({ source: v1 })).toEqual({ id: 'expense', ver: 1, warnings: [] });
      expect(await designer.models.deploy.mutate({ source: v2 })).toEqual({ id: 'expense', ver: 2, warnings: [] });
      const list = await t.as('viewer').models.list.query({});
      expect(list.count).toBe(1);
      expect(list.rows[0]).toMatchObject({ id: 'expense', name: 'Expense claim', ver: 2, versions: [{ ver: 1 }, { ver: 2 }] });
      expect(list.rows[0]).not.toHaveProperty('data');
      expect((await t.as('viewer').models.get.query({ id: 'expense', ver: 1 })).source).toBe(v1);
      expect((await t.as('viewer').models.get.query({ id: 'expense' })).ver).toBe(2);
      const diff = await t.as('viewer').models.diff.query({ id: 'expense', from: 1, to: 2 });
      expect(diff.lines.filter((l) => l.op === 'del').map((l) => l.text)).toEqual(['name: Expense', '      - { uses: acts.core.irq, key: approve, params: { title: Approve? } }']);
      expect(diff.lines.filter((l) => l.op === 'add').map((l) => l.text)).toEqual(['name: Expense claim', '      - { uses: acts.core.irq, key: approve, params: { title: Approve now? } }']);
      expect(diff.lines.filter((l) => l.op === 'same')).toHaveLength(4);
      expect(await t.as('viewer').models.export.query({ id: 'expense' })).toEqual({ filename: 'expense.v2.yml', source: v2 });
      expect(await t.audit.last('model.deploy')).toMatchObject({ actor: t.users.designer.id, target: 'expense', result: 'ok' });
    });

    it('lists the versions of one model, newest first, and refuses an unknown model', async () => {
      await t.as('designer').models.deploy.mutate({ source: v1.replace('id: expense', 'id: versioned'), note: 'first' });
      await t.as('designer').models.deploy.mutate({ source: v2.replace('id: expense', 'id: versioned') });
      const { versions } = await t.as('viewer').models.versions.query({ id: 'versioned' });
      expect(versions).toMatchObject([{ ver: 2, note: '' }, { ver: 1, note: 'first', deployed_by: t.users.designer.name }]);
      expect(versions[0]).not.toHaveProperty('data');
      expect((await apiError(t.as('viewer').models.versions.query({ id: 'nope' }))).code).toBe('model.not_found');
    });

    it('imports: identical source is not a new version, a changed one is', async () => {
      const designer = t.as('designer');
      expect(await designer.models.import.mutate({ source: v2 })).toEqual({ id: 'expense', ver: 2, deployed: false });
      const v3 = v2.replace('Expense claim', 'Expense claim 3');
      expect(await designer.models.import.mutate({ source: v3 })).toEqual({ id: 'expense', ver: 3, warnings: [], deployed: true });
    });

    it('refuses an invalid model with every problem and changes nothing', async () => {
      const err = await apiError(t.as('designer').models.deploy.mutate({ source: 'id: broken\nsteps:\n  - id: a\n    next: nowhere\n' }));
      expect(err.code).toBe('model.invalid');
      expect(err.httpStatus).toBe(400);
      expect(await t.audit.last('model.deploy')).toMatchObject({ target: 'broken', result: 'model.invalid' });
      expect((await apiError(t.as('viewer').models.get.query({ id: 'broken' }))).code).toBe('model.not_found');
    });

    it('refuses bad input: wrong types, oversized YAML, unknown ids and versions', async () => {
      const designer = t.as('designer');
      const wrongType = await apiError(designer.models.deploy.mutate({ source: 42 as unknown as string }));
      expect(wrongType).toMatchObject({ code: 'input.invalid', httpStatus: 400 });
      expect((wrongType.details as { issues: Array<{ path: string }> }).issues[0].path).toBe('source');
      const big = `id: big\nname: ${'x'.repeat(257 * 1024)}\nsteps: []\n`;
      expect(await apiError(designer.models.deploy.mutate({ source: big }))).toMatchObject({ code: 'input.too_large', httpStatus: 413 });
      expect((await apiError(t.as('viewer').models.diff.query({ id: 'expense', from: 1, to: 99 }))).code).toBe('model.not_found');
      expect((await apiError(t.as('viewer').models.get.query({ id: '' }))).code).toBe('input.invalid');
      expect((await apiError(designer.models.remove.mutate({ id: 'nope' }))).code).toBe('model.not_found');
    });

    it('removes a model (designers), then it is gone', async () => {
      expect((await apiError(t.as('operator').models.remove.mutate({ id: 'expense' }))).code).toBe('auth.forbidden');
      expect(await t.as('designer').models.remove.mutate({ id: 'expense' })).toEqual({ removed: true });
      expect((await apiError(t.as('viewer').models.get.query({ id: 'expense' }))).code).toBe('model.not_found');
      expect(await t.audit.last('model.remove')).toMatchObject({ actor_name: 'designer', target: 'expense', result: 'ok' });
    });
  });

  describe('params at deploy', () => {
    it('refuses params that every run would refuse, with the run\'s message; what a template decides waits for the run', async () => {
      const designer = t.as('designer');
      const code = 'id: coded\nsteps:\n  - id: s1\n    acts:\n      - { uses: acts.transform.code, params: { code: "return { a: 1 }" } }\n';
      const refused = await apiError(designer.models.deploy.mutate({ source: code }));
      expect(refused.code).toBe('model.invalid');
      const problems = (refused.details ?? []) as Array<{ code: string; path: string; message: string }>;
      expect(problems).toEqual([expect.objectContaining({ code: 'model.invalid_params', path: expect.stringMatching(/acts\[0\]\.params$/) })]);
      expect(problems[0].message).toMatch(/^params of 'acts.transform.code' are invalid: \/ must be string/);
      // the same params through a template deploy, and the run fails with the message deploy gives for them written out
      const action = (value: string) => `id: acting\nsteps:\n  - id: s1\n    acts:\n      - { uses: acts.core.action, params: { action: ${value} } }\n`;
      const written = await apiError(designer.models.deploy.mutate({ source: action('nope') }));
      const deployMessage = ((written.details ?? []) as Array<{ message: string }>)[0].message;
      await designer.models.deploy.mutate({ source: action('"{{ \'no\' + \'pe\' }}"') });
      const { pid } = await t.as('operator').processes.start.mutate({ mid: 'acting' });
      const run = await t.engine.procs.wait(pid);
      expect(run.state).toBe('error');
      expect(deployMessage).toBe(`${run.err?.message}: every run of this act would fail so`);
    });
  });
});
