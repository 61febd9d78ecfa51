/**
 * API: `models.structuralDiff` — the nodes added, removed, changed and moved between two deployed
 * versions, over real HTTP on SQLite, with the engine's node ids (the generated ones the same as
 * the tasks of a run of that version carry). `models.diff` (lines of text) still answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimsV1, claimsV2 } from './helpers/claims-versions.ts';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const v1 = claimsV1('claims');
const v2 = claimsV2('claims');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: v1 });
  await t.as('designer').models.deploy.mutate({ source: v2 });
});
afterAll(async () => {
  await t?.close();
});

describe('models.structuralDiff', () => {
  it('lists the changed nodes with their fields and engine node ids; readers may ask', async () => {
    const diff = await t.as('viewer').models.structuralDiff.query({ id: 'claims', from: 1, to: 2 });
    expect(diff).toMatchObject({ id: 'claims', from: 1, to: 2, same: false });
    const summary = diff.changes.map((c) => [c.status, c.key, c.fields.map((f) => f.field)]);
    expect(summary).toEqual([
      ['changed', 'act:triage', ['params']],
      ['removed', 'step:review', []],
      ['added', 'step:assessment', []],
      ['moved', 'act:assess', []],
      ['removed', 'act:legacy_check', []],
      ['added', 'act:fraud_check', []],
    ]);
    expect(diff.changes[0]).toMatchObject({ nid: 'triage', fields: [{ field: 'params', before: { title: 'Triage' }, after: { title: 'Triage now' } }] });
    expect(diff.changes.find((c) => c.key === 'act:assess')).toMatchObject({ moved: { from: { parent: 'step:review' }, to: { parent: 'step:assessment' } } });
    expect(diff.unchanged).toBe(3);
  });

  it("reports the engine's generated node ids: the new version's as a run of it carries them, the old one's beside", async () => {
    const same = await t.as('viewer').models.structuralDiff.query({ id: 'claims', from: 2, to: 2 });
    expect(same).toMatchObject({ same: true, changes: [], unchanged: 7 });

    // the act without an id is unchanged from 1 to 2, but the engine's id for it is drawn from a hash of each text
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'claims' });
    await t.engine.idle();
    const { tasks } = await t.as('viewer').processes.get.query({ pid });
    const describeTask = tasks.find((task) => task.key === 'describe')!;
    const model = await t.as('viewer').processes.model.query({ pid });
    const generated = model.nodes.find((n) => n.path === 'steps[0].acts[0]')!.nid;
    expect(describeTask.nid).toBe(generated);
    // unchanged nodes are not listed: ask the other way round with a change on that act
    const v3 = v2.replace('title: Describe the claim', 'title: Describe it');
    await t.as('designer').models.deploy.mutate({ source: v3 });
    const diff = await t.as('viewer').models.structuralDiff.query({ id: 'claims', from: 2, to: 3 });
    expect(diff.changes).toHaveLength(1);
    expect(diff.changes[0]).toMatchObject({ key: 'step:intake/acts[0]', status: 'changed', beforeNid: generated, nid: expect.stringMatching(/^[0-9a-zA-Z]{8}$/) });
    expect(diff.changes[0].nid).not.toBe(generated);
  });

  it('refuses an unknown version like models.diff, and models.diff still answers', async () => {
    expect((await apiError(t.as('viewer').models.structuralDiff.query({ id: 'claims', from: 1, to: 99 }))).code).toBe('model.not_found');
    expect((await apiError(t.as('viewer').models.structuralDiff.query({ id: 'claims', from: 0, to: 1 }))).code).toBe('input.invalid');
    const lines = await t.as('viewer').models.diff.query({ id: 'claims', from: 1, to: 2 });
    expect(lines.lines.some((l) => l.op === 'add' && l.text.includes('fraud_check'))).toBe(true);
  });
});
