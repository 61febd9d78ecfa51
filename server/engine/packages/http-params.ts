/**
 * The params of `acts.core.http` (spec 1.9.2; their JSON Schema is `HTTP_PARAMS` in
 * params-schemas.ts): their defaults, what is wrong with a URL, and the request they stand for,
 * built once the templates rendered.
 */
import { randomBytes } from 'node:crypto';
import { ActError } from '../errors.ts';
import type { HttpMethod, HttpRequest } from './http-types.ts';

export const HTTP_DEFAULTS = { timeoutSecs: 30, maxBytes: 10 * 1024 * 1024, maxRetries: 10 } as const;

export const HTTP_METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
export const CONTENT_TYPES = ['json', 'text', 'html', 'binary', 'urlencoded', 'form-data', 'image', 'video', 'audio'] as const;
type ContentType = (typeof CONTENT_TYPES)[number];

export interface HttpParams {
  url: string;
  method?: HttpMethod;
  'content-type'?: ContentType;
  headers?: Pairs;
  params?: Pairs;
  body?: unknown;
  timeout?: number;
  max_bytes?: number;
  retries?: number;
}

type Pairs = { key: string; value?: unknown }[] | Record<string, string | number | boolean>;

function entries(value: Pairs | undefined): [string, string][] {
  if (!value) return [];
  const list = Array.isArray(value) ? value.map((p) => [p.key, p.value] as const) : Object.entries(value);
  return list.map(([k, v]) => [k, v === undefined || v === null ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)]);
}

/** What is wrong with `text` as the URL of a call (the message of `http.bad_url`); null when nothing. */
export function urlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `'${text}' is not an absolute URL: write it as http://host/path or https://host/path`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `'${text}' is not an http(s) URL (it uses '${url.protocol}'): only http and https can be called`;
  if (url.username || url.password) return `'${url.host}' in the URL carries a user name or password: send credentials in an Authorization header instead`;
  return null;
}

/** The URL with `params` added to its query; `http.bad_url` when it is no absolute http(s) URL. */
function urlOf(p: HttpParams): string {
  const problem = urlProblem(p.url);
  if (problem) throw new ActError('http.bad_url', problem);
  const url = new URL(p.url);
  for (const [k, v] of entries(p.params)) url.searchParams.append(k, v);
  return url.toString();
}

const MIME: Record<ContentType, string> = {
  json: 'application/json',
  text: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  binary: 'application/octet-stream',
  image: 'application/octet-stream',
  video: 'application/octet-stream',
  audio: 'application/octet-stream',
  urlencoded: 'application/x-www-form-urlencoded',
  'form-data': 'multipart/form-data',
};

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fields(body: unknown, type: ContentType): [string, string][] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ActError('params.invalid', `a '${type}' body must be a map of fields, got ${Array.isArray(body) ? 'a list' : typeof body}`);
  return Object.entries(body).map(([k, v]) => [k, v === null || v === undefined ? '' : typeof v === 'string' ? v : asText(v)]);
}

/** The body's bytes and its content-type header, as `content-type` says to send it. */
function encode(body: unknown, type: ContentType): { bytes: Buffer; mime: string } {
  switch (type) {
    case 'json':
      return { bytes: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), mime: MIME.json };
    case 'text':
    case 'html':
      return { bytes: Buffer.from(asText(body)), mime: MIME[type] };
    case 'urlencoded':
      return { bytes: Buffer.from(typeof body === 'string' ? body : new URLSearchParams(fields(body, type)).toString()), mime: MIME.urlencoded };
    case 'form-data': {
      const boundary = `acts-${randomBytes(12).toString('hex')}`;
      const parts = fields(body, type).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"\r\n\r\n${v}\r\n`);
      return { bytes: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), mime: `${MIME['form-data']}; boundary=${boundary}` };
    }
    default:
      // binary types: the body is base64 (as binary answers arrive)
      if (typeof body !== 'string') throw new ActError('params.invalid', `a '${type}' body must be a base64 string, got ${typeof body}`);
      return { bytes: Buffer.from(body, 'base64'), mime: MIME[type] };
  }
}

/** The request the (rendered, schema-checked) params stand for. */
export function httpRequestOf(p: HttpParams): HttpRequest {
  const method = p.method ?? 'GET';
  const url = urlOf(p);
  const headers: Record<string, string> = {};
  for (const [k, v] of entries(p.headers)) headers[k.toLowerCase()] = v;
  let body: Buffer | undefined;
  if (p.body !== undefined && p.body !== null && method !== 'GET' && method !== 'HEAD') {
    const encoded = encode(p.body, p['content-type'] ?? 'json');
    body = encoded.bytes;
    headers['content-type'] ??= encoded.mime;
  }
  return {
    method,
    url,
    headers,
    body,
    timeoutMs: Math.round((p.timeout ?? HTTP_DEFAULTS.timeoutSecs) * 1000),
    maxBytes: p.max_bytes ?? HTTP_DEFAULTS.maxBytes,
    retries: p.retries ?? 0,
  };
}
