/**
 * Operations and the remaining routers over real HTTP on SQLite: /healthz, /readyz, /metrics,
 * the 404 fallback, structured logs without secrets; messages and deliveries, triggers,
 * packages and health.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../server/http/logger.ts';
import { apiError, passwordOf, startTestServer, type TestServer } from './helpers/server.ts';

const model = `id: ops
name: Ops
on:
  - { id: go, uses: acts.event.manual, params: { n: 1 } }
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: wait }
`;

let t: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) });
  t = await startTestServer({ log: createLogger({ level: 'debug', destination: sink }) });
  await t.as('designer').models.deploy.mutate({ source: model });
});
afterAll(async () => {
  await t?.close();
});

async function get(path: string): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

describe('operations endpoints', () => {
  it('/healthz is live, /readyz checks the store, other paths are 404 JSON', async () => {
    expect(await get('/healthz')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready', instance: t.engine.instanceId });
    expect(await get('/studio/anything')).toMatchObject({ status: 404, text: '{"error":{"code":"not_found","message":"no such path"}}' });
    const models = t.engine.models as { list: unknown };
    const original = models.list;
    models.list = async () => Promise.reject(new Error('database is locked'));
    try {
      expect(await get('/readyz')).toMatchObject({ status: 503, text: '{"status":"unavailable","reason":"the store did not answer"}' });
    } finally {
      models.list = original;
    }
  });

  it('/metrics: processes by state, act latency, lanes, store writer, delivery backlog, timer loops', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'ops' });
    await t.engine.idle();
    const tid = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'wait')!.tid;
    await t.as('operator').tasks.complete.mutate({ pid, tid });
    await t.engine.idle();
    await t.as('operator').processes.start.mutate({ mid: 'ops' });
    await t.engine.idle();
    const metrics = await get('/metrics');
    expect(metrics.type).toMatch(/^text\/plain/);
    expect(metrics.text).toContain('acts_processes{state="completed"} 1');
    expect(metrics.text).toContain('acts_processes{state="running"} 1');
    expect(metrics.text).toMatch(/acts_act_duration_seconds_count\{uses="acts.core.irq"\} 1/);
    for (const name of ['acts_lane_queue_depth{lane="all"} 0', 'acts_store_writer_depth 0', 'acts_store_writer_saturated 0', 'acts_delivery_backlog{status="created"} 0', 'acts_timer_loop_degraded{loop="message-retry"} 0', 'acts_socket_connections 0']) {
      expect(metrics.text).toContain(name);
    }
  });

  it('logs are JSON lines with method, path, status; no password, token or cookie ever appears', async () => {
    const login = await fetch(`${t.url}/api/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-acts-csrf': '1' }, body: JSON.stringify({ name: 'alice', password: passwordOf('alice') }) });
    const session = /^acts_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1];
    await t.as('viewer').health.get.query();
    const log = lines.join('');
    expect(log).toContain('"path":"/api/trpc/auth.login","status":200');
    expect(log).toContain('"path":"/api/trpc/health.get","status":200');
    expect(log).toMatch(/"user":"operator","action":"task.complete","target":"[^"]+","result":"ok","pid":"[^"]+","tid":"[^"]+"/);
    for (const secret of [passwordOf('alice'), session, ...Object.values(t.tokens)]) expect(log).not.toContain(secret);
    expect(log).not.toContain('$argon2');
  });

  it('logs a request that went well at debug, a refused one at info', async () => {
    await t.as('viewer').health.get.query();
    await fetch(`${t.url}/no/such/path`);
    const requests = lines.flatMap((line) => line.split('\n')).filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as { level: number; path: string; status: number });
    expect(requests.find((r) => r.path === '/api/trpc/health.get' && r.status === 200)?.level).toBe(20);
    expect(requests.find((r) => r.path === '/no/such/path')).toMatchObject({ status: 404, level: 30 });
  });
});

describe('messages, triggers, packages, health', () => {
  it('lists messages and deliveries; acks one; redo and clear report counts; unknown delivery ids are refused', async () => {
    const seen: string[] = [];
    const channel = t.engine.channel({ id: 'ext', ack: true }).onMessage((m) => void seen.push(m.id));
    try {
      const { pid } = await t.as('operator').processes.start.mutate({ mid: 'ops' });
      await t.engine.idle();
      const messages = await t.as('viewer').messages.list.query({ pid, key: 'wait' });
      expect(messages.rows.map((m) => m.state)).toEqual(['created']);
      const deliveries = await t.as('viewer').messages.deliveries.query({ pid, status: 'created' });
      expect(deliveries.count).toBeGreaterThan(0);
      const id = deliveries.rows[0].id;
      expect(await t.as('operator').messages.ack.mutate({ id })).toEqual({ acked: true });
      expect((await t.as('viewer').messages.deliveries.query({ pid, status: 'acked' })).rows.map((d) => d.id)).toContain(id);
      expect(await t.audit.last('message.ack')).toMatchObject({ target: id, result: 'ok' });
      expect(await apiError(t.as('operator').messages.ack.mutate({ id: 'missing' }))).toMatchObject({ code: 'delivery.not_found' });
      expect(await t.as('operator').messages.redo.mutate()).toEqual({ count: 0 });
      expect(await t.as('operator').messages.clear.mutate({ pid })).toEqual({ count: 0 });
      expect((await apiError(t.as('viewer').messages.clear.mutate({}))).code).toBe('auth.forbidden');
    } finally {
      channel.close();
    }
  });

  it('triggers: list with next/last run, enable/disable (designers), fire now (operators)', async () => {
    const list = await t.as('viewer').triggers.list.query({ mid: 'ops' });
    expect(list.rows).toHaveLength(1);
    expect(list.rows[0]).toMatchObject({ id: 'ops:go', kind: 'manual', enabled: true, next_run: expect.any(Number), last_run: expect.any(Number) });
    expect((await apiError(t.as('operator').triggers.setEnabled.mutate({ id: 'ops:go', enabled: false }))).code).toBe('auth.forbidden');
    expect(await t.as('designer').triggers.setEnabled.mutate({ id: 'ops:go', enabled: false })).toMatchObject({ enabled: false });
    await t.as('designer').triggers.setEnabled.mutate({ id: 'ops:go', enabled: true });
    const fired = (await t.as('operator').triggers.fire.mutate({ id: 'ops:go', params: { n: 2 } })) as { pid: string };
    await t.engine.idle();
    expect((await t.as('viewer').processes.get.query({ pid: fired.pid })).variables).toMatchObject({ n: 2 });
    expect(await t.audit.last('trigger.fire')).toMatchObject({ target: 'ops:go', result: 'ok' });
    expect((await apiError(t.as('operator').triggers.fire.mutate({ id: 'ops:none' }))).code).toBe('trigger.not_found');
    expect((await apiError(t.as('operator').triggers.fire.mutate({ id: 'ops:go', params: { big: 'x'.repeat(70_000) } }))).code).toBe('input.too_large');
  });

  it('packages with their schemas; health with loops, lanes, writer and stats', async () => {
    const packages = await t.as('viewer').packages.list.query();
    expect(packages.rows.map((p) => p.id)).toContain('acts.core.irq');
    expect(packages.rows.find((p) => p.id === 'acts.transform.set')).toHaveProperty('schema');
    expect((await apiError(t.as('viewer').packages.get.query({ name: 'nope' }))).code).toBe('package.unknown');
    const health = await t.as('viewer').health.get.query();
    expect(health.loops.map((l) => l.name)).toEqual(['message-retry', 'schedule-trigger']);
    expect(health).toMatchObject({ lanes: { workers: 4 }, writer: { depth: 0, saturated: false, cap: 10_000 }, stats: { queueDepth: 0, writerSaturated: false }, instance: t.engine.instanceId });
  });
});
