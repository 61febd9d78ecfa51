/**
 * `acts.app.state` (issue 13, item 3): per-process values keyed `<pid>:<key>`, on the engine's own
 * store (memory, SQLite, PostgreSQL) or on the local Redis when configured; they survive a
 * restart, one process never sees another's, and the sweeper removes them with the process.
 * Bad params are refused at deploy; an unreachable Redis fails the act with state.unavailable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../server/runtime/engine.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

const REDIS_URL = process.env.ACTS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const connectRedis = () => createClient({ url: REDIS_URL }).connect();

/** SET a value, wait at an interrupt (a restart may come), then GET it back and GET a key never set. */
const KEEP = `
id: keep
inputs: { n: 41 }
steps:
  - id: s1
    acts:
      - { uses: acts.app.state, key: put, params: { op: SET, key: counter, value: { n: '{{ n }}', tags: [a, b] } } }
  - id: s2
    acts: [ { uses: acts.core.irq, key: wait } ]
  - id: s3
    acts:
      - { uses: acts.app.state, key: read, params: { op: GET, key: counter } }
      - { uses: acts.app.state, key: none, params: { op: GET, key: never } }
`;

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness(options: EngineOptions): Promise<Harness> {
  const h = await createHarness(options);
  harnesses.push(h);
  return h;
}

async function dataOf(h: Harness, pid: string, key: string): Promise<Record<string, unknown> | undefined> {
  return (await h.proc(pid)).tasks.find((t) => t.key === key)?.data;
}

type Place = (typeof BACKENDS)[number] | 'redis';

describe.each<Place>([...BACKENDS, 'redis'])('acts.app.state on %s', (place) => {
  const store = useTestStore(place === 'redis' ? 'memory' : place);
  const prefix = `acts-test-${randomBytes(6).toString('hex')}:`;
  let redis: Awaited<ReturnType<typeof connectRedis>> | undefined;
  beforeAll(async () => {
    if (place === 'redis') redis = await connectRedis();
  });
  afterAll(async () => {
    if (!redis) return;
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await redis.unlink(keys);
    await redis.close();
  });
  const options = (more: EngineOptions = {}): EngineOptions => ({
    store: borrowed(store()),
    ...(place === 'redis' ? { state: { redisUrl: REDIS_URL, redisPrefix: prefix } } : {}),
    ...more,
  });

  it('SET keeps a value that GET reads back as {<key>: value} after a restart; a key never set is null', async () => {
    const first = await harness(options());
    await first.deploy(KEEP);
    const pid = await first.start('keep');
    expect((await first.proc(pid)).state).toBe('running');
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);

    const second = await harness(options());
    const wait = (await second.proc(pid)).tasks.find((t) => t.key === 'wait' && t.state === 'interrupted');
    await second.engine.do({ pid, tid: wait!.tid, action: 'complete', options: {} });
    await second.settle();
    expect((await second.proc(pid)).state).toBe('completed');
    expect(await dataOf(second, pid, 'read')).toMatchObject({ counter: { n: 41, tags: ['a', 'b'] } });
    expect(await dataOf(second, pid, 'none')).toMatchObject({ never: null });
    expect((await second.proc(pid)).tasks.find((t) => t.key === 'read')?.outputs).toEqual({ counter: { n: 41, tags: ['a', 'b'] } });
    if (redis) expect(JSON.parse((await redis.get(`${prefix}${pid}:counter`)) ?? 'null')).toEqual({ n: 41, tags: ['a', 'b'] });
    else expect(await store().states.find(`${pid}:counter`)).toMatchObject({ pid, key: 'counter', value: { n: 41, tags: ['a', 'b'] } });
  });

  it("one process never sees another's values", async () => {
    const h = await harness(options());
    await h.deploy(KEEP);
    const a = await h.start('keep', { n: 1 });
    const b = await h.start('keep', { n: 2 });
    await h.act('complete', 'wait', {}, b);
    expect(await dataOf(h, b, 'read')).toMatchObject({ counter: { n: 2 } });
    await h.act('complete', 'wait', {}, a);
    expect(await dataOf(h, a, 'read')).toMatchObject({ counter: { n: 1 } });
  });

  it('the sweeper removes the values with the process', async () => {
    const h = await harness(options({ sweepAfterSecs: 0 }));
    await h.deploy(KEEP);
    const pid = await h.start('keep');
    await h.act('complete', 'wait', {}, pid);
    const kept = async () => (redis ? (await redis.exists(`${prefix}${pid}:counter`)) === 1 : await store().states.exists(`${pid}:counter`));
    expect(await kept()).toBe(true);
    await h.tick(1000);
    await h.tick(1000);
    await expect(h.proc(pid)).rejects.toMatchObject({ code: 'process.not_found' });
    expect(await kept()).toBe(false);
  });
});

describe('acts.app.state refusals', () => {
  it('bad params are refused at deploy: SET without a value, an op that is not GET or SET, an empty key', async () => {
    const h = await harness({});
    const one = (params: string) => h.deploy(`id: bad\nsteps: [ { id: s1, acts: [ { uses: acts.app.state, params: ${params} } ] } ]`);
    await expect(one('{ op: SET, key: k }')).rejects.toMatchObject({ code: 'model.invalid', details: [expect.objectContaining({ code: 'model.invalid_params', message: "params of 'acts.app.state' are invalid: / must have required property 'value': every run of this act would fail so" })] });
    await expect(one('{ op: get, key: k }')).rejects.toMatchObject({ details: [expect.objectContaining({ code: 'model.invalid_params', message: expect.stringMatching(/\/op must be one of "GET", "SET"/) })] });
    await expect(one("{ op: GET, key: '' }")).rejects.toMatchObject({ details: [expect.objectContaining({ code: 'model.invalid_params' })] });
  });

  it('an unreachable Redis fails the act with state.unavailable, naming the URL without its password', async () => {
    const h = await harness({ state: { redisUrl: 'redis://:s3cret@127.0.0.1:1/0' } });
    await h.deploy(KEEP);
    const pid = await h.start('keep');
    const act = (await h.proc(pid)).tasks.find((t) => t.key === 'put');
    expect(act?.err).toMatchObject({ ecode: 'state.unavailable', message: expect.stringMatching(/Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0\) failed.*ACTS_STATE_REDIS_URL/) });
    expect(act?.err?.message).not.toContain('s3cret');
  });

  it('a value above value_cap_bytes fails the act before anything is stored (its params are too large)', async () => {
    const store = new MemoryStore();
    const h = await harness({ valueCapBytes: 1000, store: borrowed(store) });
    await h.deploy(`id: big\nsteps: [ { id: s1, acts: [ { uses: acts.app.state, key: put, params: { op: SET, key: k, value: '{{ "x".repeat(2000) }}' } } ] } ]`);
    const pid = await h.start('big');
    expect((await h.proc(pid)).tasks.find((t) => t.key === 'put')?.err).toEqual({ ecode: '', message: expect.stringMatching(/the params of act .* above the limit of 1000 bytes \(value_cap_bytes\)/) });
    expect(await store.states.exists(`${pid}:k`)).toBe(false);
  });
});

/** A redis-server of the test's own on `port` (no persistence), ready to take connections. */
async function ownRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('acts.app.state on a Redis that goes away and comes back', () => {
  it('while it is down the act fails at once with state.unavailable; once it is back, acts work again', async () => {
    const port = await freePort();
    let redisServer = await ownRedis(port);
    try {
      const h = await harness({ state: { redisUrl: `redis://127.0.0.1:${port}` } });
      await h.deploy(`id: rw\nsteps: [ { id: s1, acts: [ { uses: acts.app.state, key: put, params: { op: SET, key: k, value: 1 } }, { uses: acts.app.state, key: get, params: { op: GET, key: k } } ] } ]`);
      const up = await h.start('rw');
      expect((await h.proc(up)).state).toBe('completed');

      const gone = new Promise((resolve) => redisServer.once('exit', resolve));
      redisServer.kill('SIGKILL');
      await gone;
      const down = await h.start('rw');
      expect((await h.proc(down)).tasks.find((t) => t.key === 'put')?.err).toMatchObject({ ecode: 'state.unavailable' });

      redisServer = await ownRedis(port);
      const back = await eventually(async () => {
        const pid = await h.start('rw');
        return (await h.proc(pid)).state === 'completed' ? pid : undefined;
      }, 'a state act worked again after Redis came back', 500);
      expect(await dataOf(h, back, 'get')).toMatchObject({ k: 1 });
    } finally {
      redisServer.kill('SIGKILL');
    }
  });
});
