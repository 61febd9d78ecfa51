/**
 * The API's fast path for a plain tRPC call — one query by GET, or one mutation by POST of JSON
 * with a `Content-Length` within the limit — answered without tRPC's Fetch adapter, which builds a
 * URL, Headers, a Request, AbortControllers, web streams and a Response per call and sends the
 * body chunked: most of the server's CPU for a call that does little (`auth.me`).
 *
 * Only the transport is ours: the procedure with its middlewares, the context, the error formatter
 * and `onError` are tRPC's and the app's own, called as tRPC's `resolveResponse` calls them (the
 * raw input parsed lazily and once, a context error thrown inside the call; the middleware chain
 * run as tRPC runs it, without its copies: procedure-call.ts), and the reply is tRPC's wire format
 * (`{ result: { data } }`, or `{ error }` with the status tRPC gives it).
 * `test/api-plain-call.test.ts` sends every call to both and compares the replies.
 *
 * Anything else goes to `fallback` (tRPC's adapter) untouched, before any of it is read: batches,
 * other query parameters, HEAD and other methods, a query by POST or a mutation by GET, another
 * content type, streaming `accept`s, a body without a length or over the limit, a path that is
 * not a procedure's.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { getTRPCErrorShape, getTRPCErrorFromUnknown, transformTRPCResponse, TRPCError, type AnyProcedure, type AnyRouter } from '@trpc/server';
import { getHTTPStatusCode } from '@trpc/server/http';
import { callProcedure, lazySignal } from './procedure-call.ts';

export interface PlainCallOptions<Ctx extends object> {
  router: AnyRouter;
  /** Where procedure paths start, with both slashes (`/api/trpc/`). */
  basePath: string;
  maxBodySize: number;
  createContext(req: IncomingMessage, res: ServerResponse): Promise<Ctx>;
  onError(opts: { error: TRPCError; path: string; type: 'query' | 'mutation'; input: unknown; ctx: Ctx | undefined; req: IncomingMessage }): void;
  /** Handles every request that is not a plain call (tRPC's adapter). */
  fallback: RequestListener;
}

const PROCEDURE_PATH = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
const METHOD_OF = { query: 'GET', mutation: 'POST' } as const;
/** tRPC's code for input it cannot read (errors.ts maps it to `input.invalid`). */
const UNREADABLE_INPUT = 'BAD_REQUEST';

interface PlainCall {
  path: string;
  procedure: AnyProcedure;
  type: 'query' | 'mutation';
  /** The query's `input` parameter; null for a mutation (its body) or a query without one. */
  queryInput: string | null;
}

/** The media type of a `Content-Type` header, lower case without parameters; '' when absent. */
const mediaType = (header: string | undefined): string => (header ?? '').split(';', 1)[0].trim().toLowerCase();

/** `req` as a plain call, or null when tRPC's adapter must answer it. */
function plainCall(req: IncomingMessage, router: AnyRouter, basePath: string, maxBodySize: number): PlainCall | null {
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  const path = (mark < 0 ? url : url.slice(0, mark)).slice(basePath.length);
  if (!url.startsWith(basePath) || !PROCEDURE_PATH.test(path)) return null;
  const procedures = router._def.procedures as Record<string, AnyProcedure | undefined>;
  // own keys only: `constructor` or `toString` must never find Object's (tRPC's record has no prototype today)
  const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
  const type = procedure?._def.type;
  if (!procedure || (type !== 'query' && type !== 'mutation') || req.method !== METHOD_OF[type]) return null;
  const { headers } = req;
  if (headers['trpc-accept'] !== undefined || (headers.accept ?? '').includes('application/jsonl')) return null;
  const media = mediaType(headers['content-type']);
  if (media !== 'application/json' && !(type === 'query' && media === '')) return null;
  let queryInput: string | null = null;
  if (mark >= 0) {
    const params = new URLSearchParams(url.slice(mark + 1));
    for (const key of params.keys()) if (key !== 'input') return null;
    if (type === 'mutation' || params.getAll('input').length > 1) return null;
    queryInput = params.get('input');
  }
  if (type === 'mutation') {
    const length = Number(headers['content-length'] ?? NaN);
    if (headers['transfer-encoding'] !== undefined || !(length >= 0 && length <= maxBodySize)) return null;
  }
  return { path, procedure, type, queryInput };
}

/** The request's body as text (a leading BOM dropped, as `Request.text()` does). */
function bodyText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    req.once('error', reject);
  });
}

/**
 * The raw input as tRPC reads it: the JSON of `text` (undefined when empty) through the router's
 * transformer, parsed on the first read, a failure as BAD_REQUEST with its message; `result()`
 * is the input once a read succeeded. (`get` is made by `reader`, not written in the object
 * literal: under tsx the build names every function written as a property, a `defineProperty`
 * each time one is made — per call here.)
 */
class RawInput {
  private read: Promise<unknown> | undefined;
  private parsed: { value: unknown } | undefined;
  readonly get: () => Promise<unknown>;

  constructor(
    private readonly router: AnyRouter,
    private readonly text: string | null,
  ) {
    this.get = reader(this);
  }

  /** The parsed input (read once). */
  value(): Promise<unknown> {
    return (this.read ??= this.parse().catch(unreadable));
  }

  result(): unknown {
    return this.parsed?.value;
  }

  private async parse(): Promise<unknown> {
    const value = this.text ? this.router._def._config.transformer.input.deserialize(JSON.parse(this.text)) : undefined;
    this.parsed = { value };
    return value;
  }
}

function reader(input: RawInput): () => Promise<unknown> {
  return () => input.value();
}

/** A failed read of the input as tRPC reports it: BAD_REQUEST with the failure's message. */
function unreadable(cause: unknown): never {
  if (cause instanceof TRPCError) throw cause;
  throw new TRPCError({ code: UNREADABLE_INPUT, message: cause instanceof Error ? cause.message : 'Invalid input', cause });
}

async function answer<Ctx extends object>(options: PlainCallOptions<Ctx>, call: PlainCall, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { router } = options;
  const config = router._def._config;
  const input = new RawInput(router, call.type === 'mutation' ? await bodyText(req) : call.queryInput);
  let ctx: Ctx | undefined;
  let reply: object;
  let sent: object;
  let error: TRPCError | undefined;
  try {
    ctx = await options.createContext(req, res);
    const data = await callProcedure(call.procedure, { path: call.path, getRawInput: input.get, ctx, type: call.type, signal: lazySignal(res) });
    // tRPC's transformTRPCResponse of a result, without its copies of the reply
    reply = sent = { result: { data: config.transformer.output.serialize(data) } };
  } catch (cause) {
    error = getTRPCErrorFromUnknown(cause);
    options.onError({ error, path: call.path, type: call.type, input: input.result(), ctx, req });
    reply = { error: getTRPCErrorShape({ config, ctx, error, input: input.result(), path: call.path, type: call.type }) };
    sent = transformTRPCResponse(config, reply as Parameters<typeof transformTRPCResponse>[1]);
  }
  const body = JSON.stringify(sent);
  if (res.statusCode === 200) res.statusCode = error ? getHTTPStatusCode([reply] as Parameters<typeof getHTTPStatusCode>[0], [error]) : 200;
  res.setHeader('vary', 'trpc-accept, accept');
  res.setHeader('content-type', 'application/json');
  res.end(body);
}

/** The API's listener: plain calls answered here, everything else by `options.fallback`. */
export function plainCallHandler<Ctx extends object>(options: PlainCallOptions<Ctx>): RequestListener {
  return (req, res) => {
    const call = plainCall(req, options.router, options.basePath, options.maxBodySize);
    return call ? answer(options, call, req, res) : options.fallback(req, res);
  };
}
