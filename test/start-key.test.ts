/**
 * Idempotent process starts (server/runtime/start-keys.ts):
 * - over real HTTP on SQLite and PostgreSQL: a repeat with the same key answers the first process
 *   (`repeated: true`), concurrent repeats start one process, another model or other inputs is
 *   `process.key_conflict`, the key comes from the input or the `Idempotency-Key` header (also for
 *   trigger fires, as a webhook sender would send it);
 * - with a real SIGKILL of an engine host right after the start was written and before the caller
 *   heard (fault point `start:written`): the retry on a new host answers the stored process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcRow } from '../server/store/contract/types.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, readyHost } from './helpers/engine-process.ts';
import { apiError, rawCall, startTestServer, type TestServer } from './helpers/server.ts';

const MODEL = `id: once
inputs: { amount: 0 }
on:
  - { id: go, uses: acts.event.manual }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: ask }
`;

const OTHER = `id: other
steps: [ { id: s1, acts: [ { uses: acts.core.irq, key: wait } ] } ]
`;

const withKey = (key: string) => ({ filter: { type: 'and' as const, exprs: [{ key: 'start_key', op: 'eq' as const, value: key }] } });

describe.each(SQL_BACKENDS)('idempotent starts over the API on %s', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: MODEL });
    await t.as('designer').models.deploy.mutate({ source: OTHER });
  });
  afterAll(async () => {
    await t?.close();
  });

  const processesWith = async (key: string) => (await t.engine.procs.list(withKey(key))).rows;

  it('a repeat with the same key, model and inputs answers the first process; the key is audited', async () => {
    const op = t.as('operator');
    const first = await op.processes.start.mutate({ mid: 'once', inputs: { amount: 5, tags: ['a'] }, idempotencyKey: 'order-1' });
    expect(first).toMatchObject({ mid: 'once', repeated: false });
    await t.engine.idle();
    // the same inputs in another key order are the same start
    const again = await t.as('alice').processes.start.mutate({ mid: 'once', inputs: { tags: ['a'], amount: 5 }, idempotencyKey: 'order-1' });
    expect(again).toMatchObject({ pid: first.pid, mid: 'once', state: 'running', repeated: true });
    expect((await processesWith('order-1')).map((r) => r.id)).toEqual([first.pid]);
    expect((await t.as('viewer').processes.list.query({ mid: 'once' })).count).toBe(1);
    expect(await t.audit.last('proc.start')).toMatchObject({ actor_name: 'alice', result: 'ok', detail: { idempotencyKey: 'order-1' } });
    // without a key every start is new
    const plain = await op.processes.start.mutate({ mid: 'once', inputs: { amount: 5, tags: ['a'] } });
    expect(plain).toMatchObject({ repeated: false });
    expect(plain.pid).not.toBe(first.pid);
  });

  it('the same key with other inputs or another model is process.key_conflict (409) naming the first process', async () => {
    const op = t.as('operator');
    const first = await op.processes.start.mutate({ mid: 'once', inputs: { amount: 1 }, idempotencyKey: 'order-2' });
    const inputs = await apiError(op.processes.start.mutate({ mid: 'once', inputs: { amount: 2 }, idempotencyKey: 'order-2' }));
    expect(inputs).toMatchObject({ code: 'process.key_conflict', httpStatus: 409, details: { pid: first.pid, mid: 'once' } });
    expect(inputs.message).toContain(`already used to start process '${first.pid}' with other start options`);
    const model = await apiError(op.processes.start.mutate({ mid: 'other', inputs: { amount: 1 }, idempotencyKey: 'order-2' }));
    expect(model).toMatchObject({ code: 'process.key_conflict', details: { pid: first.pid, mid: 'once' } });
    expect(model.message).toContain("with model 'once'");
    expect((await processesWith('order-2')).length).toBe(1);
    expect((await t.as('viewer').processes.list.query({ mid: 'other' })).count).toBe(0);
  });

  it('concurrent starts with one key start one process and all answer it', async () => {
    const op = t.as('operator');
    const replies = await Promise.all(Array.from({ length: 6 }, () => op.processes.start.mutate({ mid: 'once', inputs: { amount: 9 }, idempotencyKey: 'burst' })));
    const pids = new Set(replies.map((r) => r.pid));
    expect(pids.size).toBe(1);
    expect(replies.filter((r) => !r.repeated)).toHaveLength(1);
    expect((await processesWith('burst')).map((r) => r.id)).toEqual([...pids]);
  });

  it('takes the key from the Idempotency-Key header, for starts and trigger fires; refuses bad keys', async () => {
    const headers = { authorization: `Bearer ${t.tokenOf('operator')}`, 'idempotency-key': 'hook-1' };
    const fire = async () => rawCall(t.url, 'triggers.fire', { body: { id: 'once:go', params: { amount: 3 } }, headers });
    const first = await fire();
    expect(first.status).toBe(200);
    const pid = (first.body.result?.data as { pid: string }).pid;
    expect(first.body.result?.data).toEqual({ pid, repeated: false });
    expect((await fire()).body.result?.data).toEqual({ pid, repeated: true });
    expect((await processesWith('hook-1')).map((r) => r.id)).toEqual([pid]);

    const start = await rawCall(t.url, 'processes.start', { body: { mid: 'once', inputs: { amount: 3 } }, headers: { ...headers, 'idempotency-key': 'header-1' } });
    const repeat = await rawCall(t.url, 'processes.start', { body: { mid: 'once', inputs: { amount: 3 }, idempotencyKey: 'header-1' }, headers: { ...headers, 'idempotency-key': 'header-1' } });
    expect(repeat.body.result?.data).toMatchObject({ pid: (start.body.result?.data as { pid: string }).pid, repeated: true });
    const differ = await rawCall(t.url, 'processes.start', { body: { mid: 'once', idempotencyKey: 'a' }, headers: { ...headers, 'idempotency-key': 'b' } });
    expect(differ.status).toBe(400);
    expect(differ.body.error?.data.code).toBe('input.invalid');
    expect(differ.body.error?.message).toContain('the Idempotency-Key header and the input idempotencyKey differ');
    const long = await apiError(t.as('operator').processes.start.mutate({ mid: 'once', idempotencyKey: 'k'.repeat(201) }));
    expect(long).toMatchObject({ code: 'input.invalid', message: 'The idempotency key is longer than 200 characters.' });
    const longHeader = await rawCall(t.url, 'processes.start', { body: { mid: 'once' }, headers: { ...headers, 'idempotency-key': 'k'.repeat(201) } });
    expect(longHeader.body.error?.data.code).toBe('input.invalid');
  });
});

describe.each(SQL_BACKENDS)('a start cut off by SIGKILL after it was written, on %s', (backend) => {
  const databases: TestDatabase[] = [];
  const hosts: EngineProcess[] = [];
  afterAll(async () => {
    for (const h of hosts) await h.kill();
    for (const db of databases) await db.drop();
  });

  const host = (url: string, crashAt?: string): Promise<EngineProcess> => readyHost(hosts, url, crashAt);

  async function storedWithKey(url: string, key: string): Promise<ProcRow[]> {
    const store = await openStore(url);
    try {
      return (await store.procs.query(withKey(key))).rows;
    } finally {
      await store.close();
    }
  }

  it('the caller never heard; its retry on the next host answers the stored process, and no second one starts', { timeout: 60_000 }, async () => {
    const db = await createTestDatabase(backend);
    databases.push(db);
    const first = await host(db.url, 'start:written');
    await first.send('deploy', { source: MODEL });
    await expect(first.send('start', { mid: 'once', options: { amount: 4 }, key: 'cut-off' })).rejects.toThrow(/exited/);
    expect((await first.exited).signal).toBe('SIGKILL');
    const stored = await storedWithKey(db.url, 'cut-off');
    expect(stored).toHaveLength(1);

    const second = await host(db.url);
    const retry = await second.send<{ pid: string; repeated: boolean; state: string }>('start', { mid: 'once', options: { amount: 4 }, key: 'cut-off' });
    expect(retry).toMatchObject({ pid: stored[0].id, repeated: true });
    await second.send('idle');
    expect((await storedWithKey(db.url, 'cut-off')).map((r) => r.id)).toEqual([stored[0].id]);
    const detail = await second.send<{ state: string; tasks: Array<{ key: string; state: string }> }>('proc', { pid: stored[0].id });
    expect(detail.state).toBe('running');
    expect(detail.tasks.filter((x) => x.key === 'ask').map((x) => x.state)).toEqual(['interrupted']);
    await second.stop();
  });
});
