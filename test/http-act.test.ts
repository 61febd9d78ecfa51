/**
 * `acts.core.http` (issue 13, item 1) against a real HTTP server on 127.0.0.1: answers land in the
 * act's data (JSON, text, base64), a non-2xx answer fails the act with the status as its ecode,
 * retries, timeouts, size limits, redirects, templates, and coded errors for bad input.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineOptions } from '../server/runtime/engine.ts';
import { defaultsFromSchema } from '../components/designer/model/schema-defaults.ts';
import { createHarness, type Harness } from './helpers/harness.ts';
import { json, startPeer, type Peer } from './helpers/http-peer.ts';
import { oneActModel, runOneAct, type OneAct, type OneActRun } from './helpers/one-act.ts';

let peer: Peer;
const harnesses: Harness[] = [];
beforeEach(async () => {
  peer = await startPeer();
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await peer.close();
});

async function harness(options: EngineOptions = {}): Promise<Harness> {
  const h = await createHarness(options);
  harnesses.push(h);
  return h;
}

const CALL: OneAct = { mid: 'call', uses: 'acts.core.http', key: 'call', inputs: "{ base: '' }" };

/** A model of one http act with `params` (YAML flow map), then a msg act that runs only after it. */
function model(params: string, extra = ''): string {
  return oneActModel(CALL, params, extra);
}

function run(h: Harness, params: string, extra = ''): Promise<OneActRun> {
  return runOneAct(h, CALL, params, extra, { base: peer.base });
}

describe('acts.core.http answers', () => {
  it('a 200 JSON answer: body parsed into `data`, status and headers beside it, the process goes on', async () => {
    peer.route('/json', (_req, res) => json(res, 200, { hello: 'world', n: 3 }));
    const h = await harness();
    const { state, act } = await run(h, `{ url: '{{ base }}/json' }`);
    expect(state).toBe('completed');
    expect(act.data.data).toEqual({ hello: 'world', n: 3 });
    expect(act.data.status).toBe(200);
    expect((act.data.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(act.outputs).toMatchObject({ status: 200, data: { hello: 'world', n: 3 } });
    expect(h.find({ key: 'after', state: 'completed' })).toHaveLength(1);
  });

  it('a text answer stays text; a binary one arrives as base64', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10]);
    peer.route('/text', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('héllo'));
    peer.route('/bin', (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes));
    const h = await harness();
    expect((await run(h, `{ url: '{{ base }}/text' }`)).act.data.data).toBe('héllo');
    const binary = await run(h, `{ url: '{{ base }}/bin' }`);
    expect(binary.act.data.data).toBe(bytes.toString('base64'));
  });

  it('a 404 fails the act with ecode "404", which `catches: [{on: "404"}]` catches', async () => {
    const h = await harness();
    const caught = await run(h, `{ url: '{{ base }}/missing' }`, `
        catches:
          - on: '404'
            steps: [ { id: fix, acts: [ { uses: acts.core.msg, key: fixed } ] } ]`);
    expect(caught.state).toBe('completed');
    // only a rule on '404' runs `fix`: an act error with any other ecode would end the process in error
    expect(caught.act.data.status).toBe(404);
    expect(h.find({ key: 'fixed', state: 'completed' })).toHaveLength(1);
  });

  it('an uncaught 404 ends the process in error naming the call and the status', async () => {
    const h = await harness();
    const { state, err } = await run(h, `{ url: '{{ base }}/missing' }`);
    expect(state).toBe('error');
    expect(err?.ecode).toBe('404');
    expect(err?.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/missing answered 404 Not Found: no route \/missing$/);
    expect(h.find({ key: 'after' })).toHaveLength(0);
  });
});

describe('acts.core.http retries', () => {
  it('a GET with `retries` is tried again after a 500 and completes once the service answers', async () => {
    let calls = 0;
    peer.route('/flaky', (_req, res) => (++calls < 3 ? json(res, 500, { down: true }) : json(res, 200, { up: true })));
    const h = await harness();
    const { state, act } = await run(h, `{ url: '{{ base }}/flaky', retries: 3 }`);
    expect(state).toBe('completed');
    expect(act.data.data).toEqual({ up: true });
    expect(peer.seen.filter((s) => s.path === '/flaky')).toHaveLength(3);
  });

  it('retries run out: the last 500 fails the act with ecode "500"', async () => {
    peer.route('/down', (_req, res) => json(res, 500, { down: true }));
    const h = await harness();
    const { err } = await run(h, `{ url: '{{ base }}/down', retries: 2 }`);
    expect(err?.ecode).toBe('500');
    expect(peer.seen.filter((s) => s.path === '/down')).toHaveLength(3);
  });

  it('a POST is never retried (not idempotent)', async () => {
    peer.route('/down', (_req, res) => json(res, 503, {}));
    const h = await harness();
    const { err } = await run(h, `{ url: '{{ base }}/down', method: POST, body: { a: 1 }, retries: 3 }`);
    expect(err?.ecode).toBe('503');
    expect(peer.seen.filter((s) => s.path === '/down')).toHaveLength(1);
  });

  it('a connection refused is retried, then fails with http.failed', async () => {
    const gone = peer.base;
    await peer.close();
    peer = await startPeer();
    const h = await harness();
    await h.deploy(model(`{ url: '{{ base }}/x', retries: 1 }`));
    const pid = await h.start('call', { base: gone });
    const act = (await h.proc(pid)).tasks.find((t) => t.uses === 'acts.core.http');
    expect(act?.err?.ecode).toBe('http.failed');
    expect(act?.err?.message).toMatch(/ECONNREFUSED.*check that the service runs/);
  });
});

describe('acts.core.http limits', () => {
  it('a slow answer fails the act with http.timeout after its `timeout`', async () => {
    peer.route('/slow', () => undefined); // never answers; the peer's close ends the connection
    const h = await harness();
    const { err } = await run(h, `{ url: '{{ base }}/slow', timeout: 0.3 }`);
    expect(err?.ecode).toBe('http.timeout');
    expect(err?.message).toMatch(/within 0.3 s: raise the act's 'timeout' param/);
  });

  it('an answer above `max_bytes` fails the act with http.too_large', async () => {
    peer.route('/huge', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000)));
    const h = await harness();
    const { err, act } = await run(h, `{ url: '{{ base }}/huge', max_bytes: 1000 }`);
    expect(err?.ecode).toBe('http.too_large');
    expect(err?.message).toMatch(/more than 1000 bytes/);
    expect(act.data.data).toBeUndefined();
  });
});

describe('acts.core.http and the value cap', () => {
  it('an answer within max_bytes but above value_cap_bytes fails the act with data.too_large; HEAD keeps no body', async () => {
    peer.route('/big', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(5000)));
    const h = await harness({ valueCapBytes: 2000 });
    const { err } = await run(h, `{ url: '{{ base }}/big' }`);
    expect(err).toMatchObject({ ecode: '', message: expect.stringMatching(/^the result of act '.*' is .* of JSON, above the limit of .* \(value_cap_bytes\)/) });
    const head = await run(h, `{ url: '{{ base }}/big', method: HEAD }`);
    expect(head.state).toBe('completed');
    expect(head.act.data).toMatchObject({ status: 200, data: '' });
  });
});

describe('acts.core.http redirects and hosts', () => {
  it('a redirect is followed; a 303 after a POST goes on as a GET', async () => {
    peer.route('/old', (_req, res) => res.writeHead(302, { location: '/json' }).end());
    peer.route('/made', (_req, res) => res.writeHead(303, { location: `${peer.base}/json` }).end());
    peer.route('/json', (req, res) => json(res, 200, { via: req.method }));
    const h = await harness();
    expect((await run(h, `{ url: '{{ base }}/old' }`)).act.data.data).toEqual({ via: 'GET' });
    expect((await run(h, `{ url: '{{ base }}/made', method: POST, body: { a: 1 } }`)).act.data.data).toEqual({ via: 'GET' });
  });

  it('a redirect to another host does not carry the Authorization header along', async () => {
    peer.route('/out', (_req, res) => res.writeHead(307, { location: `http://localhost:${peer.port}/json` }).end());
    peer.route('/json', (req, res) => json(res, 200, { auth: req.headers.authorization ?? null, method: req.method }));
    const h = await harness();
    const { act } = await run(h, `{ url: '{{ base }}/out', method: PUT, body: { a: 1 }, headers: [ { key: Authorization, value: 'Bearer s3cret' } ] }`);
    expect(peer.seen[0].headers.authorization).toBe('Bearer s3cret');
    // a 307 keeps the method and the body
    expect(act.data.data).toEqual({ auth: null, method: 'PUT' });
    expect(peer.seen[1].body).toBe('{"a":1}');
  });

  it('endless redirects fail with http.redirects', async () => {
    peer.route('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    const h = await harness();
    const { err } = await run(h, `{ url: '{{ base }}/loop' }`);
    expect(err?.ecode).toBe('http.redirects');
    expect(peer.seen.filter((s) => s.path === '/loop')).toHaveLength(6);
  });

  it('a redirect into a denied host is refused before it is called', async () => {
    peer.route('/out', (_req, res) => res.writeHead(302, { location: `http://localhost:${peer.port}/json` }).end());
    peer.route('/json', (_req, res) => json(res, 200, {}));
    const h = await harness({ http: { deny: ['localhost'] } });
    const { err } = await run(h, `{ url: '{{ base }}/out' }`);
    expect(err?.ecode).toBe('http.denied_host');
    expect(err?.message).toMatch(/calling 'localhost' is not allowed: its name is on the deny list/);
    expect(peer.seen.map((s) => s.path)).toEqual(['/out']);
  });

  it('with private addresses denied, 127.0.0.1 is refused — by its literal address or by a name resolving to it', async () => {
    peer.route('/json', (_req, res) => json(res, 200, {}));
    // an engine without a policy called first: its kept-alive connection is not the other engine's
    const open = await harness();
    expect((await run(open, `{ url: 'http://localhost:${peer.port}/json' }`)).state).toBe('completed');
    peer.seen.length = 0;
    const h = await harness({ http: { denyPrivate: true } });
    expect((await run(h, `{ url: '{{ base }}/json' }`)).err).toMatchObject({ ecode: 'http.denied_host', message: expect.stringMatching(/127\.0\.0\.1 is a private, loopback/) });
    expect((await run(h, `{ url: 'http://localhost:${peer.port}/json' }`)).err).toMatchObject({ ecode: 'http.denied_host' });
    expect(peer.seen).toHaveLength(0);
  });

  it('an allow list admits what it names and nothing else', async () => {
    peer.route('/json', (_req, res) => json(res, 200, { ok: true }));
    const h = await harness({ http: { allow: ['127.0.0.0/8'], denyPrivate: true } });
    expect((await run(h, `{ url: '{{ base }}/json' }`)).state).toBe('completed');
    const other = await harness({ http: { allow: ['api.example.com'] } });
    expect((await run(other, `{ url: '{{ base }}/json' }`)).err?.ecode).toBe('http.denied_host');
    expect(peer.seen).toHaveLength(1);
  });
});

describe('acts.core.http params', () => {
  it('`{{ }}` renders in the url, params, headers and body', async () => {
    peer.route('/echo', (_req, res) => json(res, 200, {}));
    const h = await harness();
    await h.deploy(
      model(`
          url: '{{ base }}/echo'
          method: '{{ "PO" + "ST" }}'
          params: [ { key: q, value: '{{ 6 * 7 }}' } ]
          headers: { x-token: 'tok-{{ base.length > 0 ? "yes" : "no" }}' }
          body: { n: '{{ 1 + 2 }}', name: 'n{{ "a" }}' }`),
    );
    await h.start('call', { base: peer.base });
    const seen = peer.seen.find((s) => s.path.startsWith('/echo'));
    expect(seen).toMatchObject({ method: 'POST', path: '/echo?q=42', body: '{"n":3,"name":"na"}' });
    expect(seen?.headers['x-token']).toBe('tok-yes');
    expect(seen?.headers['content-type']).toBe('application/json');
  });

  it('form bodies: urlencoded and form-data', async () => {
    peer.route('/form', (_req, res) => json(res, 200, {}));
    const h = await harness();
    await run(h, `{ url: '{{ base }}/form', method: POST, content-type: urlencoded, body: { a: 'x y', b: 2 } }`);
    expect(peer.seen[0]).toMatchObject({ body: 'a=x+y&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await run(h, `{ url: '{{ base }}/form', method: PUT, content-type: form-data, body: { a: 'x' } }`);
    expect(peer.seen[1].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(peer.seen[1].body).toMatch(/name="a"\r\n\r\nx\r\n/);
  });

  it('a URL a template makes bad fails the act with http.bad_url and a sentence; nothing is called', async () => {
    const h = await harness();
    const { err, state } = await run(h, `{ url: '{{ "not a url" }}' }`);
    expect(state).toBe('error');
    expect(err).toEqual({ ecode: 'http.bad_url', message: "'not a url' is not an absolute URL: write it as http://host/path or https://host/path" });
    expect((await run(h, `{ url: 'ftp://{{ "example.com" }}/f' }`)).err?.message).toMatch(/is not an http\(s\) URL \(it uses 'ftp:'\)/);
    expect(peer.seen).toHaveLength(0);
  });

  it('the published schema gives the designer a form; a new act starts as { method: GET }', async () => {
    const h = await harness();
    const pkg = await h.engine.packages.get('acts.core.http');
    const schema = pkg.schema as { required: string[]; properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(['url', 'method', 'content-type', 'headers', 'params', 'body', 'timeout', 'max_bytes', 'retries']);
    expect(schema.required).toEqual(['url']);
    expect(defaultsFromSchema(schema)).toEqual({ method: 'GET' });
  });

  it('params the schema refuses are refused at deploy, and the model is not stored', async () => {
    const h = await harness();
    await expect(h.deploy(model(`{ url: 'http://x', method: FETCH }`))).rejects.toMatchObject({ code: 'model.invalid' });
    await expect(h.deploy(model(`{ method: GET }`))).rejects.toMatchObject({ code: 'model.invalid' });
    await expect(h.deploy(model(`{ url: 'http://x', timeout: -1 }`))).rejects.toMatchObject({ code: 'model.invalid' });
    // a URL as written (no template) is checked at deploy with the run's sentence
    await expect(h.deploy(model(`{ url: 'not a url' }`))).rejects.toMatchObject({ code: 'model.invalid', message: expect.stringMatching(/'not a url' is not an absolute URL: write it as http:\/\/host\/path/) });
    await expect(h.deploy(model(`{ url: 'file:///etc/passwd' }`))).rejects.toMatchObject({ code: 'model.invalid', message: expect.stringMatching(/only http and https can be called/) });
    await expect(h.engine.procs.start('call', {})).rejects.toMatchObject({ code: 'model.not_found' });
  });
});
