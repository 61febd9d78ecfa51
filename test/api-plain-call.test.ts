/**
 * The API's fast path for plain calls (server/http/plain-call.ts) against tRPC's own adapter:
 * every request below goes to two listeners over the same engine, auth and audit log — tRPC's
 * adapter alone, and the fast path in front of it — and the replies must agree in status, the
 * headers a client reads and the body (ids and times that differ between two real calls masked).
 * The fast path must answer the plain calls itself and hand every other request to tRPC's adapter
 * untouched (counted at its fallback).
 */
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServices } from '../server/api/context.ts';
import { DraftBook } from '../server/drafts/index.ts';
import { systemClock } from '../server/engine/clock.ts';
import { apiHandler, trpcHandler } from '../server/http/api-handler.ts';
import { passwordOf, startTestServer, type TestServer } from './helpers/server.ts';

interface Request {
  method: string;
  /** After `/api/trpc/`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked, without a Content-Length. */
  chunked?: boolean;
}

interface Reply {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

const MODEL = 'id: plain\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: ask } ] } ]';
/** Values that differ between two real calls of the same request. */
const VOLATILE = new Set(['pid', 'cursor', 'expires', 'start_time', 'startTime', 'repeated']);

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VOLATILE.has(k) ? '*' : mask(v)]));
  return value;
}

async function listen(handler: RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function send(port: number, request: Request): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers };
    if (request.body !== undefined && !request.chunked) headers['content-length'] = String(Buffer.byteLength(request.body));
    const req = http.request({ host: '127.0.0.1', port, method: request.method, path: `/api/trpc/${request.path}`, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const cookie = res.headers['set-cookie']?.map((c) => c.replace(/acts_session=[^;]*/, 'acts_session=*').replace(/Expires=[^;]*/i, 'Expires=*')).join('\n');
        resolve({
          status: res.statusCode ?? 0,
          headers: { 'content-type': res.headers['content-type'], vary: res.headers.vary, allow: res.headers.allow, 'set-cookie': cookie },
          body: text === '' ? '' : mask(JSON.parse(text)),
        });
      });
    });
    req.on('error', reject);
    if (request.chunked && request.body !== undefined) req.write(request.body);
    req.end(request.chunked ? undefined : request.body);
  });
}

const query = (path: string, input?: unknown, headers?: Record<string, string>): Request => ({
  method: 'GET',
  path: input === undefined ? path : `${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
  headers,
});
const mutation = (path: string, body: string, headers?: Record<string, string>): Request => ({ method: 'POST', path, body, headers: { 'content-type': 'application/json', ...headers } });

describe('plain API calls on the fast path', () => {
  let t: TestServer;
  let reference: Awaited<ReturnType<typeof listen>>;
  let fast: Awaited<ReturnType<typeof listen>>;
  let delegated = 0;
  let pid = '';
  let session = '';
  const bearer = (name: string) => ({ authorization: `Bearer ${t.tokenOf(name)}` });
  const csrf = { 'x-acts-csrf': '1' };

  beforeAll(async () => {
    t = await startTestServer();
    await t.as('designer').models.deploy.mutate({ source: MODEL });
    pid = (await t.as('operator').processes.start.mutate({ mid: 'plain' })).pid;
    const services: ApiServices = { engine: t.engine, auth: t.auth, audit: t.audit, drafts: new DraftBook(t.store, systemClock), secrets: t.secrets, log: pino({ level: 'silent' }), secureCookie: false, trustProxy: 0 };
    const tRPC = trpcHandler(services);
    reference = await listen(tRPC);
    fast = await listen(
      apiHandler(services, (req, res) => {
        delegated++;
        return tRPC(req, res);
      }),
    );
    session = (await t.auth.login('viewer', passwordOf('viewer'), '127.0.0.1')).token;
  });
  afterAll(async () => {
    await reference?.close();
    await fast?.close();
    await t?.close();
  });

  /** Sends `request` to both listeners; the fast one's reply, after checking it equals tRPC's. */
  async function both(request: Request, expectDelegated: boolean): Promise<Reply> {
    const expected = await send(reference.port, request);
    const before = delegated;
    const actual = await send(fast.port, request);
    expect(actual).toEqual(expected);
    expect({ delegated: delegated - before }).toEqual({ delegated: expectDelegated ? 1 : 0 });
    return actual;
  }

  it('answers queries itself, results and refusals alike', async () => {
    const cases: Array<[Request, number]> = [
      [query('auth.me', undefined, bearer('viewer')), 200],
      [query('auth.me', {}), 200],
      [query('auth.me', {}, { cookie: `acts_session=${session}` }), 200],
      [query('models.list', undefined, bearer('viewer')), 200],
      [query('processes.get', { pid }, bearer('viewer')), 200],
      [query('processes.get', { pid: 'no-such-pid' }, bearer('viewer')), 404],
      [query('processes.get', { pid: 42 }, bearer('viewer')), 400],
      [query('processes.get', { pid: 'a\u0000b' }, bearer('viewer')), 400],
      [query('processes.get', { pid }), 401],
      [query('models.get', { id: 'plain with spaces+plus' }, { ...bearer('viewer'), 'content-type': 'application/json' }), 404],
      [{ method: 'GET', path: 'processes.get?input=%7Bnot%20json', headers: bearer('viewer') }, 400],
      [{ method: 'GET', path: `processes.get?input=${encodeURIComponent(JSON.stringify({ pid }))}`, headers: { ...bearer('viewer'), accept: 'application/json' } }, 200],
    ];
    for (const [request, status] of cases) expect((await both(request, false)).status).toBe(status);
  });

  it('answers mutations itself: results, cookies, refusals and the input as tRPC reads it', async () => {
    const body = (value: unknown) => JSON.stringify(value);
    const cases: Array<[Request, number]> = [
      [mutation('processes.start', body({ mid: 'plain' }), bearer('operator')), 200],
      [mutation('processes.start', body({ mid: 'plain' }), { ...bearer('operator'), 'content-type': 'Application/JSON; charset=utf-8' }), 200],
      [mutation('processes.start', body({ mid: 'plain' }), bearer('viewer')), 403],
      [mutation('processes.start', body({ mid: 'nope' }), bearer('operator')), 404],
      [mutation('processes.start', body({ mid: 'plain', inputs: 'x' }), bearer('operator')), 400],
      [mutation('processes.start', '{not json', bearer('operator')), 400],
      [mutation('processes.start', '', bearer('operator')), 400],
      [mutation('processes.start', `\uFEFF${body({ mid: 'plain' })}`, bearer('operator')), 200],
      [mutation('processes.start', body({ mid: 'p\u0000' }), bearer('operator')), 400],
      [mutation('auth.logout', '', { cookie: `acts_session=${session}-not-a-session` }), 403],
      [mutation('auth.login', body({ name: 'viewer', password: 'wrong-password' }), csrf), 401],
      [mutation('auth.login', body({ name: 'viewer', password: passwordOf('viewer') }), csrf), 200],
    ];
    for (const [request, status] of cases) expect((await both(request, false)).status).toBe(status);
    const login = await send(fast.port, mutation('auth.login', body({ name: 'viewer', password: passwordOf('viewer') }), csrf));
    expect(login.headers['set-cookie']).toContain('acts_session=*');
  });

  it('hands every other request to tRPC untouched', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: {} }));
    const cases: Array<[Request, number]> = [
      [{ method: 'GET', path: `auth.me,models.list?batch=1&input=${input}`, headers: bearer('viewer') }, 200],
      [{ method: 'GET', path: 'auth.me?input=%7B%7D&extra=1', headers: bearer('viewer') }, 200],
      [{ method: 'GET', path: 'auth.me?input=%7B%7D&input=%7B%7D', headers: bearer('viewer') }, 200],
      [{ method: 'GET', path: 'auth%2Eme', headers: bearer('viewer') }, 200],
      [{ method: 'GET', path: 'processes.start', headers: bearer('operator') }, 405],
      [mutation('auth.me', '{}', bearer('viewer')), 405],
      [mutation('nothing.here', '{}', bearer('viewer')), 404],
      [{ method: 'GET', path: 'constructor', headers: bearer('viewer') }, 404],
      [mutation('toString', '{}', bearer('viewer')), 404],
      [mutation('processes.start', JSON.stringify({ mid: 'plain' }), { ...bearer('operator'), 'content-type': 'text/plain' }), 415],
      [{ ...mutation('processes.start', JSON.stringify({ mid: 'plain' }), bearer('operator')), chunked: true }, 200],
      [mutation('processes.start', JSON.stringify({ mid: 'plain', inputs: { big: 'x'.repeat(1_100_000) } }), bearer('operator')), 413],
      [{ method: 'GET', path: 'auth.me', headers: { ...bearer('viewer'), 'trpc-accept': 'application/jsonl' } }, 400],
      [{ method: 'GET', path: 'auth.me', headers: { ...bearer('viewer'), 'content-type': 'text/plain' } }, 200],
    ];
    for (const [request, status] of cases) expect((await both(request, true)).status).toBe(status);
  });
});
