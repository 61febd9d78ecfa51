/**
 * `acts.core.http` calls run beside the lanes (issue 13, item 1): a slow call holds neither the
 * engine's thread nor its lane — other processes, even on the one lane, go on — and a call cut off
 * by the engine's end is made again after a restart on the same SQLite store (at least once).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { createHarness, type Harness } from './helpers/harness.ts';
import { json, startPeer, type Peer } from './helpers/http-peer.ts';

const SLOW = `
id: slow
inputs: { base: '' }
steps:
  - id: s1
    acts: [ { uses: acts.core.http, key: call, params: { url: '{{ base }}/hold' } } ]
`;
const QUICK = `
id: quick
steps:
  - id: s1
    acts: [ { uses: acts.transform.set, params: { done: true } } ]
`;

let peer: Peer;
let held: ServerResponse[];
const harnesses: Harness[] = [];
beforeEach(async () => {
  peer = await startPeer();
  held = [];
  peer.route('/hold', (_req, res) => void held.push(res));
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await peer.close();
});

const TRIES = 1500; // 30 s of 20 ms checks: the machine is loaded

describe('acts.core.http beside the lanes', () => {
  it("while a call is in flight, other processes on the same (single) lane run to their end", async () => {
    const h = await createHarness({ schedulerWorkers: 1 });
    harnesses.push(h);
    await h.deploy(SLOW);
    await h.deploy(QUICK);
    const slow = await h.engine.procs.start('slow', { base: peer.base });
    await eventually(() => held.length === 1, 'the slow call reached the peer', TRIES);
    const quick = await h.engine.procs.start('quick', {});
    await eventually(async () => (await h.proc(quick.pid)).state === 'completed', 'the other process completed', TRIES);
    const during = await h.proc(slow.pid);
    expect(during.state).toBe('running');
    expect(during.tasks.find((t) => t.uses === 'acts.core.http')?.state).toBe('running');
    // a process waiting for its call's answer is not stuck: the answer will move it
    expect((await h.engine.tick()).stuck).toBe(0);
    json(held[0], 200, { late: true });
    await eventually(async () => (await h.proc(slow.pid)).state === 'completed', 'the slow process completed', TRIES);
    expect((await h.proc(slow.pid)).tasks.find((t) => t.uses === 'acts.core.http')?.data.data).toEqual({ late: true });
  }, 60_000);
});

describe('acts.core.http with code workers (as the server runs)', () => {
  it('templated params evaluated on a worker, then the call, then a code act reading its answer', async () => {
    const h = await createHarness({ codeWorkers: 2, expressionTrialMs: 0 });
    harnesses.push(h);
    peer.route('/json', (_req, res) => json(res, 200, { n: 20 }));
    await h.deploy(`
id: chained
inputs: { base: '' }
steps:
  - id: s1
    acts: [ { uses: acts.core.http, key: call, params: { url: '{{ base + "/json" }}', headers: { x-n: '{{ 1 + 1 }}' } } } ]
  - id: s2
    acts: [ { uses: acts.transform.code, params: 'return { total: data.n + status }' } ]
`);
    const pid = await h.start('chained', { base: peer.base });
    const detail = await h.proc(pid);
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.uses === 'acts.transform.code')?.data.total).toBe(220);
    expect(peer.seen[0].headers['x-n']).toBe('2');
  }, 60_000);
});

describe('acts.core.http across a restart (SQLite)', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterEach(async () => {
    await db.drop();
  });

  it('a call cut off by the engine closing is made again by the next engine, and the act completes', async () => {
    const first = await createHarness({ store: await openStore(db.url) });
    await first.deploy(SLOW);
    const { pid } = await first.engine.procs.start('slow', { base: peer.base });
    await eventually(() => held.length === 1, 'the call reached the peer', TRIES);
    await first.close();
    // the act was left running, waiting for its answer
    peer.route('/hold', (_req, res) => json(res, 200, { second: true }));
    const second = await createHarness({ store: await openStore(db.url) });
    harnesses.push(second);
    await eventually(async () => (await second.proc(pid)).state === 'completed', 'the process completed after the restart', TRIES);
    expect(peer.seen.filter((s) => s.path === '/hold')).toHaveLength(2);
    expect((await second.proc(pid)).tasks.find((t) => t.uses === 'acts.core.http')?.data.data).toEqual({ second: true });
  }, 60_000);
});
