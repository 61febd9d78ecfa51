/**
 * API: drafts (issue 17 item 1) — a designer's unsaved YAML and node layout saved per user and
 * model (or per never-deployed workflow's key), read back, listed, discarded; only by designers
 * and admins, each reaching only their own; sizes bounded like models; `deployCheck` names what a
 * deploy would go over. Over real HTTP on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DRAFTS_PER_USER } from '../server/drafts/index.ts';
import { apiError, startTestServer, USERS, type TestServer } from './helpers/server.ts';

const source = (name: string, extra = '') => `id: shared\nname: ${name}\nsteps:\n  - id: s1\n${extra}`;

describe.each(['sqlite', 'postgresql'] as const)('drafts on %s', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend, users: { ...USERS, ana: ['designer'] } });
    await t.as('designer').models.deploy.mutate({ source: source('Shared v1') });
  });
  afterAll(() => t?.close());

  it('saves a draft of a deployed model with its layout and base, reads it back and lists it; a later save keeps when it began', async () => {
    const as = t.as('designer');
    const first = await as.drafts.save.mutate({ key: { mid: 'shared' }, source: source('Shared, edited'), layout: { s1: { x: 10.5, y: -20 } }, base_ver: 1 });
    expect(first).toMatchObject({ mid: 'shared', fresh: '', title: 'Shared, edited', user_name: 'designer', base_ver: 1 });
    const second = await as.drafts.save.mutate({ key: { mid: 'shared' }, source: source('Shared, edited twice'), layout: { s1: { x: 1, y: 2 } }, base_ver: 1 });
    expect(second.create_time).toBe(first.create_time);
    expect(second.update_time).toBeGreaterThan(first.update_time);
    expect(await as.drafts.get.query({ key: { mid: 'shared' } })).toMatchObject({ source: source('Shared, edited twice'), layout: { s1: { x: 1, y: 2 } }, title: 'Shared, edited twice' });
    expect((await as.drafts.list.query()).rows.filter((d) => d.mid === 'shared')).toEqual([second]);
  });

  it('keeps each never-deployed workflow under its own key, listed with that key', async () => {
    const as = t.as('designer');
    await as.drafts.save.mutate({ key: { fresh: 'newone-aaaa' }, source: 'id: brand_new\nname: Brand new\n', layout: {}, base_ver: 0 });
    await as.drafts.save.mutate({ key: { fresh: 'newone-bbbb' }, source: 'id: other_new\n', layout: {}, base_ver: 0 });
    const rows = (await as.drafts.list.query()).rows;
    expect(rows.slice(0, 2).map((d) => [d.fresh, d.mid, d.title])).toEqual([
      ['newone-bbbb', '', 'other_new'],
      ['newone-aaaa', '', 'Brand new'],
    ]);
    expect((await as.drafts.get.query({ key: { fresh: 'newone-aaaa' } }))?.source).toBe('id: brand_new\nname: Brand new\n');
  });

  it("reaches only the caller's own drafts", async () => {
    const ana = t.as('ana');
    expect(await ana.drafts.get.query({ key: { mid: 'shared' } })).toBeNull();
    expect(await ana.drafts.get.query({ key: { fresh: 'newone-aaaa' } })).toBeNull();
    expect((await ana.drafts.list.query()).rows).toEqual([]);
    expect(await ana.drafts.discard.mutate({ key: { fresh: 'newone-aaaa' } })).toEqual({ discarded: false });
    expect(await t.as('designer').drafts.get.query({ key: { fresh: 'newone-aaaa' } })).not.toBeNull();
  });

  it('is for designers and admins', async () => {
    const save = { key: { mid: 'shared' }, source: source('x'), layout: {}, base_ver: 1 };
    for (const name of ['viewer', 'operator']) {
      expect((await apiError(t.as(name).drafts.save.mutate(save))).code).toBe('auth.forbidden');
      expect((await apiError(t.as(name).drafts.list.query())).code).toBe('auth.forbidden');
      expect((await apiError(t.as(name).drafts.deployCheck.query({ mid: 'shared', base_ver: 1 }))).code).toBe('auth.forbidden');
    }
    expect((await apiError(t.as('anon').drafts.get.query({ key: { mid: 'shared' } }))).code).toBe('auth.required');
    expect((await t.as('admin').drafts.save.mutate(save)).user_name).toBe('admin');
    expect(await t.as('admin').drafts.discard.mutate({ key: { mid: 'shared' } })).toEqual({ discarded: true });
  });

  it('refuses bad input with a coded sentence: empty or oversized text, a bad key, a bad or oversized layout', async () => {
    const as = t.as('designer');
    const ok = { key: { mid: 'shared' }, source: source('x'), layout: {}, base_ver: 1 };
    const refusal = async (input: unknown) => apiError(as.drafts.save.mutate(input as typeof ok));
    expect(await refusal({ ...ok, source: '' })).toMatchObject({ code: 'input.invalid', message: expect.stringMatching(/empty/) });
    expect(await refusal({ ...ok, source: `# ${'x'.repeat(256 * 1024)}` })).toMatchObject({ code: 'input.too_large', message: expect.stringMatching(/model source is larger than 256 KiB/) });
    expect((await refusal({ ...ok, key: { fresh: 'a/b' } })).code).toBe('input.invalid');
    expect((await refusal({ ...ok, key: { mid: 'shared', fresh: 'abcdefgh' } })).code).toBe('input.invalid');
    expect((await refusal({ ...ok, key: {} })).code).toBe('input.invalid');
    expect((await refusal({ ...ok, layout: { s1: { x: 'left', y: 0 } } })).code).toBe('input.invalid');
    expect((await refusal({ ...ok, base_ver: -1 })).code).toBe('input.invalid');
    const huge = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`node_${i}`, { x: i, y: i }]));
    expect(await refusal({ ...ok, layout: huge })).toMatchObject({ code: 'input.too_large', message: expect.stringMatching(/layout is larger than 64 KiB/) });
  });

  it('discards a draft (idempotent)', async () => {
    const as = t.as('designer');
    await as.drafts.save.mutate({ key: { fresh: 'to-discard-1' }, source: 'id: gone\n', layout: {}, base_ver: 0 });
    expect(await as.drafts.discard.mutate({ key: { fresh: 'to-discard-1' } })).toEqual({ discarded: true });
    expect(await as.drafts.discard.mutate({ key: { fresh: 'to-discard-1' } })).toEqual({ discarded: false });
    expect(await as.drafts.get.query({ key: { fresh: 'to-discard-1' } })).toBeNull();
  });

  it('deployCheck names the versions deployed since the base and the other designers’ drafts saved since mine began', async () => {
    await t.as('designer').drafts.save.mutate({ key: { mid: 'shared' }, source: source('mine'), layout: {}, base_ver: 1 });
    // ana starts after the designer's draft began: the designer is warned of her, she is not warned of him
    await t.as('ana').drafts.save.mutate({ key: { mid: 'shared' }, source: source('hers'), layout: {}, base_ver: 1 });
    const mine = await t.as('designer').drafts.deployCheck.query({ mid: 'shared', base_ver: 1 });
    expect(mine.deployed_since).toEqual([]);
    expect(mine.others.map((d) => [d.user_name, d.base_ver])).toEqual([['ana', 1]]);
    const hers = await t.as('ana').drafts.deployCheck.query({ mid: 'shared', base_ver: 1 });
    expect(hers.others.map((d) => d.user_name)).not.toContain('designer');

    await t.as('ana').models.deploy.mutate({ source: source('hers') });
    await t.as('ana').drafts.discard.mutate({ key: { mid: 'shared' } });
    const after = await t.as('designer').drafts.deployCheck.query({ mid: 'shared', base_ver: 1 });
    expect(after.deployed_since).toEqual([{ ver: 2, create_time: expect.any(Number), deployed_by: 'ana' }]);
    expect(after.others).toEqual([]);
    // a new workflow (base 0) whose id is already deployed: every version is "since"
    expect((await t.as('designer').drafts.deployCheck.query({ mid: 'shared', base_ver: 0 })).deployed_since.map((v) => v.ver)).toEqual([2, 1]);
    expect(await t.as('designer').drafts.deployCheck.query({ mid: 'not_deployed', base_ver: 0 })).toEqual({ deployed_since: [], others: [] });
  });

  it(`keeps at most ${MAX_DRAFTS_PER_USER} drafts per user; saving one of them again still works`, async () => {
    const as = t.as('ana');
    const have = (await as.drafts.list.query()).rows.length;
    for (let i = have; i < MAX_DRAFTS_PER_USER; i++) await as.drafts.save.mutate({ key: { fresh: `bulk-${String(i).padStart(4, '0')}` }, source: 'id: bulk\n', layout: {}, base_ver: 0 });
    const refused = await apiError(as.drafts.save.mutate({ key: { fresh: 'one-too-many' }, source: 'id: bulk\n', layout: {}, base_ver: 0 }));
    expect(refused).toMatchObject({ code: 'draft.limit', httpStatus: 409, message: expect.stringMatching(/discard/) });
    expect((await as.drafts.save.mutate({ key: { fresh: 'bulk-0099' }, source: 'id: bulk2\n', layout: {}, base_ver: 0 })).title).toBe('bulk2');
  });
});
