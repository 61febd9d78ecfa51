/**
 * What an `acts.core.http` act asks of the engine's HTTP client (the runtime's, which does the
 * network work off the engine's thread) and what comes back.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD';

/** Methods whose call may be repeated without a new effect: only they are retried. */
export const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface HttpRequest {
  method: HttpMethod;
  /** Absolute http(s) URL, its query (`params`) included. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Most time one attempt (its redirects included) may take, ms. */
  timeoutMs: number;
  /** Largest answer body, bytes. */
  maxBytes: number;
  /** Further attempts after a connection error or a 5xx (idempotent methods only). */
  retries: number;
  /** The act making the call (its span, when tracing is on: `traceparent`). */
  caller?: { pid: string; tid: string };
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** Header names in lower case; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** JSON parsed, text, or base64 of a binary answer (by its content-type). */
  body: unknown;
  /** The URL that answered, after redirects. */
  url: string;
}

/** The engine's HTTP client: `send` fails with an `ActError` whose code is `http.*`. */
export interface HttpSender {
  send(request: HttpRequest): Promise<HttpResponse>;
}
