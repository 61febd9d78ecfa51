/**
 * The secrets API over real HTTP on SQLite and PostgreSQL: admins list, set and delete; other
 * roles are refused; bad names and sizes get coded errors and change nothing; every change is
 * audited with the name only; no answer holds a value; deploy warns of a secret not stored. A server without ACTS_SECRETS_KEY lists
 * (`enabled: false`) and refuses to store (`secrets.no_key`).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_BACKENDS } from './helpers/databases.ts';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const VALUE = `sv-${crypto.randomBytes(12).toString('hex')}`;

describe.each(SQL_BACKENDS)('on %s', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ backend, secretsKey: crypto.randomBytes(32).toString('hex') });
  });
  afterAll(() => t?.close());

  it('admins set, replace, list and delete; the answers never hold the value', async () => {
    const admin = t.as('admin');
    const created = await admin.secrets.set.mutate({ name: 'API_TOKEN', value: VALUE });
    expect(created).toMatchObject({ name: 'API_TOKEN', created: true, create_by: 'admin', update_by: 'admin' });
    const replaced = await admin.secrets.set.mutate({ name: 'API_TOKEN', value: `${VALUE}-2` });
    expect(replaced.created).toBe(false);
    const list = await admin.secrets.list.query();
    expect(list).toMatchObject({ enabled: true, count: 1, rows: [{ name: 'API_TOKEN', create_by: 'admin' }] });
    expect(JSON.stringify([created, replaced, list])).not.toContain(VALUE);
    expect(t.secrets.get('API_TOKEN')).toBe(`${VALUE}-2`);
    expect(await admin.secrets.delete.mutate({ name: 'API_TOKEN' })).toEqual({ deleted: true });
    expect((await admin.secrets.list.query()).count).toBe(0);
  });

  it('other roles are refused; bad input gets coded errors and changes nothing', async () => {
    for (const who of ['designer', 'operator', 'viewer']) {
      expect((await apiError(t.as(who).secrets.list.query())).code).toBe('auth.forbidden');
      expect((await apiError(t.as(who).secrets.set.mutate({ name: 'X', value: 'y' }))).code).toBe('auth.forbidden');
    }
    expect((await apiError(t.as('anon').secrets.list.query())).code).toBe('auth.required');
    const admin = t.as('admin');
    const bad = await apiError(admin.secrets.set.mutate({ name: 'lower_case', value: 'v' }));
    expect(bad.code).toBe('input.invalid');
    expect(bad.message).toContain('upper-case letter');
    expect((await apiError(admin.secrets.set.mutate({ name: 'EMPTY', value: '' }))).code).toBe('input.invalid');
    expect((await apiError(admin.secrets.set.mutate({ name: 'BIG', value: 'x'.repeat(8193) }))).code).toBe('input.too_large');
    expect((await apiError(admin.secrets.delete.mutate({ name: 'NONE' }))).code).toBe('secret.not_found');
    expect((await admin.secrets.list.query()).count).toBe(0);
  });

  it('every change is audited with the name, never the value', async () => {
    await t.as('admin').secrets.set.mutate({ name: 'AUDITED', value: VALUE });
    await t.as('admin').secrets.delete.mutate({ name: 'AUDITED' });
    await apiError(t.as('admin').secrets.delete.mutate({ name: 'AUDITED' }));
    const set = await t.audit.query({ action: 'secret.set', target: 'AUDITED' });
    const deleted = await t.audit.query({ action: 'secret.delete', target: 'AUDITED' });
    expect(set.rows.map((r) => [r.actor_name, r.result, r.detail])).toEqual([['admin', 'ok', { name: 'AUDITED' }]]);
    expect(deleted.rows.map((r) => r.result).sort()).toEqual(['ok', 'secret.not_found']);
    expect(JSON.stringify((await t.audit.query({ limit: 1000 })).rows)).not.toContain(VALUE);
  });
});

describe('deploy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ secretsKey: crypto.randomBytes(32).toString('hex') });
  });
  afterAll(() => t?.close());

  it('warns of a secret that is not stored (model.unknown_secret) and deploys all the same', async () => {
    const source = `id: warned\nsteps:\n  - id: s\n    acts:\n      - { uses: acts.core.http, params: { url: 'http://127.0.0.1:1/x', headers: { A: '{{ secrets.LATER }}' } } }\n`;
    const first = await t.as('designer').models.deploy.mutate({ source });
    expect(first.warnings).toEqual([expect.objectContaining({ code: 'model.unknown_secret', path: 'steps[0].acts[0].params', severity: 'warning', message: expect.stringContaining("'LATER'") })]);
    await t.as('admin').secrets.set.mutate({ name: 'LATER', value: 'v' });
    expect((await t.as('designer').models.deploy.mutate({ source })).warnings).toEqual([]);
  });
});

describe('a server without ACTS_SECRETS_KEY', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('lists nothing (enabled: false) and refuses to store', async () => {
    expect(await t.as('admin').secrets.list.query()).toEqual({ enabled: false, count: 0, rows: [] });
    const err = await apiError(t.as('admin').secrets.set.mutate({ name: 'A', value: 'v' }));
    expect(err.code).toBe('secrets.no_key');
    expect(err.message).toContain('ACTS_SECRETS_KEY');
  });
});
