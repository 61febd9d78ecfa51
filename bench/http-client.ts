/**
 * A tRPC caller for load generation: plain `node:http` with keep-alive, the wire format of tRPC's
 * `httpLink` (a query is a GET with `?input=`, a mutation a POST of JSON; no transformer), typed as
 * the real client. The real client (fetch/undici, links, abort signals) costs ~0.5 ms of CPU per
 * call — measured 87 % of a core at 1,724 auth.me calls/s — so on this 2-core machine a benchmark
 * driving it measured its own client more than the server; this one costs ~0.1 ms per call.
 */
import http from 'node:http';
import type { ApiClient } from '../test/helpers/server-process.ts';

/** Sends one call; resolves with the procedure's result, rejects with the server's error message. */
function send(agent: http.Agent, base: URL, cookie: string, path: string, kind: 'query' | 'mutate', input: unknown): Promise<unknown> {
  const body = kind === 'mutate' ? JSON.stringify(input ?? {}) : undefined;
  const query = kind === 'query' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { cookie, 'x-acts-csrf': '1' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = http.request({ host: base.hostname, port: base.port, path: `${base.pathname}/${path}${query}`, method: body === undefined ? 'GET' : 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { result?: { data?: unknown }; error?: { message?: string } };
          if (reply.error || (res.statusCode ?? 500) >= 300) reject(new Error(`${path}: ${reply.error?.message ?? `HTTP ${res.statusCode}`}`));
          else resolve(reply.result?.data);
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A client of the server at `url` (its origin) with the session `cookie`; `.query` and `.mutate` as on the real client. */
export function lightClient(url: string, cookie: string, sockets = 128): ApiClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const base = new URL('/api/trpc', url);
  const at = (path: string[]): unknown =>
    new Proxy(() => undefined, {
      get: (_target, prop) => {
        if (prop === 'query' || prop === 'mutate') return (input?: unknown) => send(agent, base, cookie, path.join('.'), prop, input);
        return typeof prop === 'string' ? at([...path, prop]) : undefined;
      },
    });
  return at([]) as ApiClient;
}
