/**
 * API stepTests (docs/step-tests.md) over real HTTP on SQLite: designers run one node and a model's
 * saved cases, viewers and operators may not; pins read a node's data from earlier runs; a deploy
 * that requires the saved cases (its flag or ACTS_DEPLOY_REQUIRE_TESTS) is refused with
 * `model.tests_failed` while one fails; a third run at once is `steptest.busy`.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.ts';
import { startPeer, type Peer } from './helpers/http-peer.ts';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const ORDER = readFileSync(new URL('./fixtures/step-tests/order.yml', import.meta.url), 'utf8');
const failing = (id: string) => ORDER.replace('id: st-order', `id: ${id}`).replace('expect: { outputs: { total: 12 } }', 'expect: { outputs: { total: 13 } }');

describe('API stepTests', () => {
  let t: TestServer;
  let peer: Peer;
  beforeAll(async () => {
    t = await startTestServer({ backend: 'sqlite' });
    peer = await startPeer();
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('a designer runs one node of an undeployed source; viewers and operators may not; the run is audited', async () => {
    const result = await t.as('designer').stepTests.run.mutate({ source: ORDER, node: 'compute', inputs: { price: 2, qty: 5 } });
    expect(result).toMatchObject({ node: 'compute', end: 'completed', outputs: { total: 10 } });
    await expect(t.as('designer').models.get.query({ id: 'st-order' })).rejects.toThrow();
    for (const who of ['viewer', 'operator']) {
      expect((await apiError(t.as(who).stepTests.run.mutate({ source: ORDER, node: 'compute' }))).code).toBe('auth.forbidden');
      expect((await apiError(t.as(who).stepTests.runAll.mutate({ source: ORDER }))).code).toBe('auth.forbidden');
    }
    expect(await t.audit.last('steptest.run')).toMatchObject({ actor: t.users.designer.id, target: 'compute', result: 'ok' });
  });

  it('answers given with the run continue the waiting act; runAll judges every saved case', async () => {
    const waiting = await t.as('designer').stepTests.run.mutate({ source: ORDER, node: 'approve', inputs: { total: 3 } });
    expect(waiting.end).toBe('waiting');
    const answered = await t.as('designer').stepTests.run.mutate({ source: ORDER, node: 'approve', inputs: { total: 3 }, answers: { [waiting.waiting[0].node]: { options: { approved_by: 'zoe' } } } });
    expect(answered).toMatchObject({ end: 'completed', vars: { approved_by: 'zoe' } });
    const { verdicts } = await t.as('designer').stepTests.runAll.mutate({ source: failing('x') });
    expect(verdicts.map((v) => v.pass)).toEqual([false, true, true]);
  });

  it("a subflow act's child model is the latest deployed version", async () => {
    const read = (f: string) => readFileSync(new URL(`../examples/${f}`, import.meta.url), 'utf8');
    await t.as('designer').models.deploy.mutate({ source: read('subflow-child.yml') });
    const answers = { init: { options: { v: 5 } }, child_task: { options: { v: 8 } } };
    const result = await t.as('designer').stepTests.run.mutate({ source: read('subflow.yml'), node: 'prepare', answers });
    expect(result).toMatchObject({ end: 'completed', vars: { v: 8 } });
  });

  it("pins: the node's tasks in the model's recent runs with the variables they saw", async () => {
    await t.as('designer').models.deploy.mutate({ source: ORDER });
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'st-order', inputs: { price: 7, qty: 3 } });
    await eventually(async () => (await t.as('viewer').processes.get.query({ pid })).tasks.some((x) => x.nid === 'ask' && x.state === 'interrupted'), 'the run waits at ask', 1000);
    const { pins } = await t.as('designer').stepTests.pins.query({ mid: 'st-order', node: 'compute' });
    expect(pins).toHaveLength(1);
    expect(pins[0]).toMatchObject({ pid, state: 'completed', outputs: { total: 21 } });
    // what the step saw when it started: the start inputs, not the total it went on to output
    expect(pins[0].vars).toEqual({ price: 7, qty: 3 });
    const later = (await t.as('designer').stepTests.pins.query({ mid: 'st-order', node: 'approve' })).pins[0];
    expect(later.vars).toEqual({ price: 7, qty: 3, total: 21 });
    const pinned = await t.as('designer').stepTests.run.mutate({ source: ORDER, node: 'compute', inputs: pins[0].vars });
    expect(pinned.outputs).toEqual({ total: 21 });
    expect((await apiError(t.as('viewer').stepTests.pins.query({ mid: 'st-order', node: 'compute' }))).code).toBe('auth.forbidden');
  });

  it('a deploy that requires the saved cases is refused while one fails, and deploys once they pass', async () => {
    const refused = await apiError(t.as('designer').models.deploy.mutate({ source: failing('gated'), requireTests: true }));
    expect(refused.code).toBe('model.tests_failed');
    expect(refused.details).toEqual([expect.objectContaining({ name: 'multiplies', failures: ["output 'total' is 12, expected 13"] })]);
    expect((await apiError(t.as('viewer').models.get.query({ id: 'gated' }))).code).toBe('model.not_found');
    expect(await t.audit.last('model.deploy')).toMatchObject({ target: 'gated', result: 'model.tests_failed' });

    process.env.ACTS_DEPLOY_REQUIRE_TESTS = '1';
    try {
      expect((await apiError(t.as('designer').models.deploy.mutate({ source: failing('gated') }))).code).toBe('model.tests_failed');
      expect(await t.as('designer').models.deploy.mutate({ source: ORDER.replace('id: st-order', 'id: gated') })).toMatchObject({ id: 'gated', ver: 1 });
    } finally {
      delete process.env.ACTS_DEPLOY_REQUIRE_TESTS;
    }
    // without the requirement a failing case does not stop a deploy
    expect(await t.as('designer').models.deploy.mutate({ source: failing('gated') })).toMatchObject({ id: 'gated', ver: 2 });
  });

  it('a third step test while two run is steptest.busy', async () => {
    const held: ServerResponse[] = [];
    peer.route('/hold', (_req, res) => void held.push(res));
    const model = `id: holding\nsteps:\n  - id: call\n    acts: [ { uses: acts.core.http, params: { url: '${peer.base}/hold', timeout: 60 } } ]\n`;
    const run = () => t.as('designer').stepTests.run.mutate({ source: model, node: 'call', limitMs: 20_000 });
    const first = [run(), run()];
    await eventually(() => held.length === 2, 'both calls arrived', 1000);
    expect((await apiError(run())).code).toBe('steptest.busy');
    for (const res of held) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    expect((await Promise.all(first)).map((r) => r.end)).toEqual(['completed', 'completed']);
  });
});
