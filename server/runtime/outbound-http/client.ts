/**
 * The engine's HTTP client for `acts.core.http` acts (engine/packages/http-types.ts `HttpSender`),
 * on node:http/https. One call: its attempts (a retry after a connection error or a 5xx, for
 * idempotent methods, when asked), each following up to 5 redirects by hand — every hop's host is
 * checked against the host policy, by name and by the address it resolves to as it connects — and
 * each bounded by the call's timeout and its answer's size.
 *
 * State: the calls in flight (their abort controllers); its own connection pools (a kept-alive
 * connection skips the address check, so it is never shared with a client of another policy);
 * `close` cuts the calls off and closes the pools.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { ActError, errorMessage } from '../../engine/errors.ts';
import { IDEMPOTENT_METHODS, type HttpMethod, type HttpRequest, type HttpResponse, type HttpSender } from '../../engine/packages/http-types.ts';
import { decodeBody } from './decode.ts';
import { traceparentOf } from '../tracing/trace-ids.ts';
import { HostPolicy, type HostPolicyConfig } from './host-policy.ts';

/** Redirects one attempt follows; the first pause before a retry (ms), doubling per retry up to the last. */
const MAX_REDIRECTS = 5;
const BACKOFF = { firstMs: 200, lastMs: 10_000 } as const;

/** One hop's answer, its body read whole. */
interface Answer {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  bytes: Buffer;
}

export class HttpClient implements HttpSender {
  private readonly policy: HostPolicy;
  private readonly inFlight = new Set<AbortController>();
  private readonly agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  private closed = false;

  constructor(
    config: HostPolicyConfig = {},
    /** Tracing is on: a call names the act that makes it in `traceparent` (W3C trace context). */
    private readonly traced = false,
  ) {
    this.policy = new HostPolicy(config);
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const control = new AbortController();
    this.inFlight.add(control);
    try {
      return await this.attempts(request, control.signal);
    } finally {
      this.inFlight.delete(control);
    }
  }

  /** Cuts off every call in flight (the engine closes); later calls fail at once. */
  close(): void {
    this.closed = true;
    for (const control of this.inFlight) control.abort();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async attempts(request: HttpRequest, signal: AbortSignal): Promise<HttpResponse> {
    const retries = IDEMPOTENT_METHODS.has(request.method) ? request.retries : 0;
    for (let attempt = 0; ; attempt++) {
      if (this.closed || signal.aborted) throw new ActError('http.failed', `${request.method} ${request.url} was cut off: the engine is closing (the call is made again when it restarts)`);
      try {
        const response = await this.attempt(request, signal);
        if (response.status < 500 || attempt >= retries) return response;
      } catch (err) {
        if (!(ActError.is(err) && err.code === 'http.failed') || attempt >= retries) throw err;
      }
      await pause(Math.min(BACKOFF.lastMs, BACKOFF.firstMs * 2 ** attempt), signal);
    }
  }

  /** One attempt: its redirects followed, all within the request's timeout. */
  private async attempt(request: HttpRequest, signal: AbortSignal): Promise<HttpResponse> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), request.timeoutMs);
    const both = AbortSignal.any([signal, timer.signal]);
    try {
      let method: HttpMethod = request.method;
      let body = request.body;
      let headers = this.traced && request.caller ? { ...request.headers, traceparent: traceparentOf(request.caller.pid, request.caller.tid) } : request.headers;
      let url = request.url;
      for (let hop = 0; ; hop++) {
        const answer = await this.hop(method, url, headers, body, request.maxBytes, both).catch((err: unknown) => {
          if (timer.signal.aborted && !signal.aborted) throw new ActError('http.timeout', `${request.method} ${request.url} got no whole answer within ${request.timeoutMs / 1000} s: raise the act's 'timeout' param, or check the service`);
          throw err;
        });
        const location = answer.headers.location;
        if (answer.status < 300 || answer.status > 399 || answer.status === 304 || !location) {
          return { status: answer.status, statusText: answer.statusText, headers: flatHeaders(answer.headers), body: decodeBody(answer.bytes, answer.headers['content-type']), url };
        }
        if (hop >= MAX_REDIRECTS) throw new ActError('http.redirects', `${request.method} ${request.url} was redirected more than ${MAX_REDIRECTS} times: call the final URL directly`);
        const next = redirectTarget(url, location);
        // 303, and 301/302 after a POST, go on as a GET without the body (as browsers do)
        if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          headers = withoutBodyHeaders(headers);
        }
        // credentials go only to the host they were given for
        if (new URL(next).host !== new URL(url).host) headers = withoutCredentials(headers);
        url = next;
      }
    } finally {
      clearTimeout(timeout);
    }
  }

  /** One request and its answer, the host checked by name and, as it connects, by address. */
  private hop(method: HttpMethod, url: string, headers: Record<string, string>, body: Buffer | undefined, maxBytes: number, signal: AbortSignal): Promise<Answer> {
    const target = new URL(url);
    this.policy.checkName(target.hostname);
    const https = target.protocol === 'https:';
    const options: RequestOptions = {
      agent: https ? this.agents.https : this.agents.http,
      method,
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      signal,
      lookup: this.policy.open ? undefined : this.checkedLookup(target.hostname),
    };
    const send = https ? httpsRequest : httpRequest;
    return new Promise<Answer>((resolve, reject) => {
      let refused: unknown;
      const req = send(target, options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            refused = new ActError('http.too_large', `${method} ${url} answered with more than ${maxBytes} bytes: raise the act's 'max_bytes' param, or ask for less`);
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(refused ?? failed(method, url, err)));
        res.on('aborted', () => reject(refused ?? failed(method, url, new Error('the answer was cut off'))));
      });
      req.on('error', (err) => reject(refused ?? (ActError.is((err as { cause?: unknown }).cause) ? (err as { cause: unknown }).cause : ActError.is(err) ? err : failed(method, url, err))));
      req.end(body);
    });
  }

  /** The DNS lookup of one host, refusing a denied address before the connection is made. */
  private checkedLookup(host: string): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, options, (err, address: string | LookupAddress[], family?: number) => {
        if (err) return callback(err, address as string, family);
        try {
          for (const a of Array.isArray(address) ? address : [{ address }]) this.policy.checkAddress(host, a.address);
        } catch (denied) {
          return callback(denied as NodeJS.ErrnoException, '', 0);
        }
        (callback as (e: null, a: string | LookupAddress[], f?: number) => void)(null, address, family);
      });
    };
  }
}

function failed(method: string, url: string, err: unknown): ActError {
  const code = (err as { code?: string }).code;
  return new ActError('http.failed', `${method} ${url} failed before an answer came (${code ? `${code}: ` : ''}${errorMessage(err)}): check that the service runs and its address is right`);
}

function redirectTarget(from: string, location: string): string {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ActError('http.redirects', `${from} redirected to '${location}', which is not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new ActError('http.redirects', `${from} redirected to '${next.href}', which is not an http(s) URL`);
  return next.toString();
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _type, 'content-length': _length, ...rest } = headers;
  return rest;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const { authorization: _auth, cookie: _cookie, ...rest } = headers;
  return rest;
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  return flat;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
