/**
 * API for live run pages: `processes.model` — the source a process runs and the engine's node id
 * of each YAML path, so the studio can colour the designer graph's nodes by the tasks' `nid`s (ids
 * the author left out included); `processes.graph` — the graph of that source as the studio draws
 * it, drawn once per model version on the server, with the same node ids; `processes.summary` —
 * every task's state without variables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotGraph } from '../server/api/model-graph.ts';
import { modelNodeIds } from '../server/api/model-node-ids.ts';
import { toGraph } from '../vocab/model-tree/to-graph.ts';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const mixed = `id: mixed
name: Mixed ids
steps:
  - id: first
    acts:
      - { uses: acts.core.irq, key: ask }
      - { id: named, uses: acts.core.irq }
  - name: no id
    branches:
      - if: 'true'
        steps:
          - acts:
              - { uses: acts.core.irq, key: deep }
`;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: mixed });
});
afterAll(async () => {
  await t?.close();
});

describe('processes.model', () => {
  it('returns the snapshot and a node id per path that matches the nid of every task', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'mixed' });
    await t.engine.idle();
    const model = await t.as('viewer').processes.model.query({ pid });
    expect(model).toMatchObject({ pid, mid: 'mixed', ver: 1, source: mixed });
    const byPath = new Map(model.nodes.map((n) => [n.path, n.nid]));
    expect(byPath.get('')).toBe('mixed');
    expect(byPath.get('steps[0]')).toBe('first');
    expect(byPath.get('steps[0].acts[1]')).toBe('named');
    expect(byPath.get('steps[0].acts[0]')).toMatch(/^[0-9a-zA-Z]{8}$/);
    expect([...byPath.keys()]).toEqual(expect.arrayContaining(['steps[1]', 'steps[1].branches[0]', 'steps[1].branches[0].steps[0]', 'steps[1].branches[0].steps[0].acts[0]']));

    const { tasks } = await t.as('viewer').processes.get.query({ pid });
    const nids = new Set(model.nodes.map((n) => n.nid));
    for (const task of tasks) expect(nids.has(task.nid), `${task.key} (${task.nid})`).toBe(true);
    const ask = tasks.find((x) => x.key === 'ask')!;
    expect(ask.nid).toBe(byPath.get('steps[0].acts[0]'));
  });

  it('reads the node ids from the compiled model (no parse per read), the same as a parse of the snapshot gives', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'mixed' });
    await t.engine.idle();
    const workflow = t.engine.models.snapshot('mixed', 1, mixed);
    expect(t.engine.models.snapshot('mixed', 1, mixed)).toBe(workflow);
    const model = await t.as('viewer').processes.model.query({ pid });
    expect(model.nodes).toEqual(modelNodeIds(mixed));
    expect(t.engine.models.snapshot('mixed', 1, mixed)).toBe(workflow);
  });

  it('refuses unknown processes and the unauthenticated', async () => {
    expect(await apiError(t.as('viewer').processes.model.query({ pid: 'nope' }))).toMatchObject({ code: 'process.not_found', httpStatus: 404 });
    expect(await apiError(t.as('anon').processes.model.query({ pid: 'nope' }))).toMatchObject({ code: 'auth.required' });
  });
});

describe('processes.graph', () => {
  it('returns the graph the studio draws of the snapshot (without source ranges) and the node ids of processes.model', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'mixed' });
    await t.engine.idle();
    const drawn = await t.as('viewer').processes.graph.query({ pid });
    const model = await t.as('viewer').processes.model.query({ pid });
    expect(drawn).toMatchObject({ pid, mid: 'mixed', ver: 1, nodes: model.nodes });
    const studio = toGraph(mixed);
    expect(drawn.graph.nodes).toEqual(studio.nodes.map(({ range: _range, ...node }) => node));
    expect(drawn.graph.edges).toEqual(studio.edges);
    expect(drawn.graph.errors).toEqual([]);
    for (const node of drawn.graph.nodes) expect(node).not.toHaveProperty('range');
  });

  it('draws a model version once (kept with its compiled snapshot)', async () => {
    const row = { mid: 'mixed', model_ver: 1, model: mixed };
    expect(snapshotGraph(t.engine, row)).toBe(snapshotGraph(t.engine, row));
  });

  it('refuses unknown processes and the unauthenticated', async () => {
    expect(await apiError(t.as('viewer').processes.graph.query({ pid: 'nope' }))).toMatchObject({ code: 'process.not_found', httpStatus: 404 });
    expect(await apiError(t.as('anon').processes.graph.query({ pid: 'nope' }))).toMatchObject({ code: 'auth.required' });
  });
});

describe('processes.summary', () => {
  it('returns every task of get without variables, the messages without values, and a cursor', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'mixed' });
    await t.engine.idle();
    const before = Date.now();
    const summary = await t.as('viewer').processes.summary.query({ pid });
    const full = await t.as('viewer').processes.get.query({ pid });
    expect(summary.cursor).toBeLessThanOrEqual(Date.now());
    expect(summary.cursor).toBeGreaterThanOrEqual(before);
    expect(summary.process).toMatchObject({ pid, mid: 'mixed', state: 'running', model_ver: 1 });
    expect(summary.process).not.toHaveProperty('env');
    expect(summary.tasks.map((x) => [x.tid, x.nid, x.state, x.err])).toEqual(full.tasks.map((x) => [x.tid, x.nid, x.state, x.err]));
    const fields = ['pid', 'tid', 'nid', 'kind', 'key', 'name', 'uses', 'state', 'parent', 'start_time', 'end_time', 'err'] as const;
    expect(summary.tasks).toEqual(full.tasks.map((x) => Object.fromEntries(fields.map((f) => [f, x[f]]))));
    for (const task of summary.tasks) {
      expect(Object.keys(task).sort()).toEqual(['end_time', 'err', 'key', 'kind', 'name', 'nid', 'parent', 'pid', 'start_time', 'state', 'tid', 'uses']);
    }
    expect(summary.messages.count).toBe(full.messages.count);
    expect(summary.messages.rows.map((m) => m.id)).toEqual(full.messages.rows.map((m) => m.id));
    expect(summary.messages.rows[0]).not.toHaveProperty('inputs');
  });

  it('refuses unknown processes', async () => {
    expect(await apiError(t.as('viewer').processes.summary.query({ pid: 'nope' }))).toMatchObject({ code: 'process.not_found' });
  });
});
