/**
 * OpenTelemetry (issue 13, item 7): with an OTLP endpoint configured, every process sends a trace —
 * a span per workflow, step and act, each the child of its parent task's span, with the process's
 * ids, model, version and package, ERROR on an error — to a real OTLP/HTTP receiver this test starts
 * on 127.0.0.1; an http act's call carries `traceparent` naming its act's span; a subflow child's
 * trace links to the act that called it. Off (the default), nothing is sent and calls carry no
 * `traceparent`. The configuration reads the standard OTEL_* variables.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/runtime/config.ts';
import { tracingFrom } from '../server/runtime/engine-options.ts';
import { spanIdOf, traceIdOf } from '../server/runtime/tracing/trace-ids.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { createHarness, type Harness } from './helpers/harness.ts';
import { json, startPeer, type Peer } from './helpers/http-peer.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { code?: number; message?: string };
  links?: Array<{ traceId: string; spanId: string }>;
}

/** An OTLP id as hex (the JSON encoding sends hex; base64 is read too). */
const hexId = (id: string | undefined) => (id === undefined || id === '' ? undefined : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));

/** Every span the receiver got, with hex ids and attributes as a plain object. */
function received(receiver: Peer): Array<OtlpSpan & { attrs: Record<string, unknown>; service: unknown }> {
  const spans: Array<OtlpSpan & { attrs: Record<string, unknown>; service: unknown }> = [];
  for (const request of receiver.seen.filter((s) => s.path === '/v1/traces')) {
    const body = JSON.parse(request.body) as { resourceSpans: Array<{ resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
    for (const rs of body.resourceSpans) {
      const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          const attrs = Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
          spans.push({ ...span, traceId: hexId(span.traceId)!, spanId: hexId(span.spanId)!, parentSpanId: hexId(span.parentSpanId), links: span.links?.map((l) => ({ traceId: hexId(l.traceId)!, spanId: hexId(l.spanId)! })), attrs, service });
        }
      }
    }
  }
  return spans;
}

const CHILD = 'id: child\nsteps: [ { id: c1, acts: [ { id: note, uses: acts.transform.set, params: { seen: 1 } } ] } ]';
const TRACED = `id: traced
inputs: { base: '' }
steps:
  - id: s1
    acts: [ { id: prepare, uses: acts.transform.set, params: { a: 1 } } ]
  - id: s2
    acts: [ { id: call, uses: acts.core.http, params: { url: '{{ base }}/api' } } ]
  - id: s3
    acts: [ { id: sub, uses: acts.core.subflow, params: { to: child } } ]
`;
const FAILING = `id: failing
inputs: { base: '' }
steps:
  - id: s1
    acts: [ { id: missing, uses: acts.core.http, params: { url: '{{ base }}/missing' } } ]
`;

let receiver: Peer;
let api: Peer;
let db: TestDatabase;
const harnesses: Harness[] = [];
beforeEach(async () => {
  receiver = await startPeer();
  receiver.route('/v1/traces', (_req, res) => json(res, 200, {}));
  api = await startPeer();
  api.route('/api', (_req, res) => json(res, 200, { ok: true }));
  db = await createTestDatabase('sqlite');
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await receiver.close();
  await api.close();
  await db.drop();
});

async function harness(tracing: boolean): Promise<Harness> {
  const h = await createHarness({ store: await openStore(db.url), tracing: tracing ? { endpoint: `${receiver.base}/v1/traces`, serviceName: 'acts-test' } : undefined });
  harnesses.push(h);
  await h.deploy(CHILD);
  await h.deploy(TRACED);
  await h.deploy(FAILING);
  return h;
}

describe('traces of processes over OTLP/HTTP', () => {
  it('a span per workflow, step and act, nested as the tasks are, with their attributes; http calls carry traceparent; a subflow links to its caller', async () => {
    const h = await harness(true);
    const pid = await h.start('traced', { base: api.base });
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
    await h.engine.flushTraces();

    const spans = received(receiver);
    const mine = spans.filter((s) => s.attrs['acts.pid'] === pid);
    const byName = new Map(mine.map((s) => [s.name, s]));
    expect([...byName.keys()].sort()).toEqual(['act call', 'act prepare', 'act sub', 'step s1', 'step s2', 'step s3', 'workflow traced']);
    const root = byName.get('workflow traced')!;
    expect(root.traceId).toBe(traceIdOf(pid));
    expect(root.spanId).toBe(spanIdOf(pid, '$'));
    expect(root.parentSpanId).toBeUndefined();
    expect(root.service).toBe('acts-test');
    expect(root.attrs).toMatchObject({ 'acts.model': 'traced', 'acts.version': 1, 'acts.state': 'completed' });
    for (const [act, step] of [['act prepare', 'step s1'], ['act call', 'step s2'], ['act sub', 'step s3']]) {
      expect(byName.get(act)!.parentSpanId).toBe(byName.get(step)!.spanId);
      expect(byName.get(step)!.parentSpanId).toBe(root.spanId);
      expect(byName.get(act)!.traceId).toBe(root.traceId);
    }
    const call = byName.get('act call')!;
    expect(call.attrs).toMatchObject({ 'acts.package': 'acts.core.http', 'acts.state': 'completed' });
    expect(BigInt(call.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(call.startTimeUnixNano));
    // the call named its act's span
    const traceparent = api.seen.find((s) => s.path === '/api')?.headers.traceparent;
    expect(traceparent).toBe(`00-${root.traceId}-${call.spanId}-01`);

    // the child's own trace, linked to the act that called it
    const childRoot = spans.find((s) => s.name === 'workflow child')!;
    expect(childRoot.traceId).toBe(traceIdOf(String(childRoot.attrs['acts.pid'])));
    expect(childRoot.links).toEqual([{ traceId: root.traceId, spanId: byName.get('act sub')!.spanId }]);
  });

  it('an error is the span status ERROR with the ecode, up to the workflow', async () => {
    const h = await harness(true);
    const pid = await h.start('failing', { base: api.base });
    await h.settle();
    expect((await h.proc(pid)).state).toBe('error');
    await h.engine.flushTraces();
    const mine = received(receiver).filter((s) => s.attrs['acts.pid'] === pid);
    const act = mine.find((s) => s.name === 'act missing')!;
    expect(act.status?.code).toBe(2);
    expect(act.attrs['acts.ecode']).toBe('404');
    expect(mine.find((s) => s.name === 'workflow failing')!.status?.code).toBe(2);
  });

  it('off by default: nothing is sent and calls carry no traceparent', async () => {
    const h = await harness(false);
    const pid = await h.start('traced', { base: api.base });
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
    await h.engine.flushTraces();
    expect(receiver.seen).toEqual([]);
    expect(api.seen.find((s) => s.path === '/api')?.headers.traceparent).toBeUndefined();
  });
});

describe('tracing configuration', () => {
  const from = (env: Record<string, string>) => tracingFrom(loadConfig({ file: undefined, env }));
  it('reads the standard OTEL_* variables', () => {
    expect(from({})).toBeUndefined();
    expect(from({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toEqual({ endpoint: 'http://127.0.0.1:4318/v1/traces', serviceName: undefined });
    expect(from({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9/t', OTEL_SERVICE_NAME: 'approvals' })).toEqual({ endpoint: 'http://b:9/t', serviceName: 'approvals' });
    expect(from({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });
  it('a bad endpoint is a clear configuration error', () => {
    expect(() => from({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/otlp_endpoint/);
  });
});
