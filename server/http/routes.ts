/**
 * The request dispatcher of the one HTTP server: operations endpoints, the tRPC API, signed
 * webhook deliveries, answer files, notification e-mails' one-click links, and a fallback for every other path (the Next.js studio; 404 JSON without it). socket.io
 * sees its `/socket.io/` requests before this dispatcher (engine.io wraps the listener).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { API_BASE } from './api-handler.ts';
import { sendJson } from './probes.ts';
import { HOOKS_BASE } from './webhooks/endpoint.ts';
import { FILES_BASE } from './files/endpoint.ts';
import { MAIL_LINKS_BASE } from '../notify/links.ts';

export interface Routes {
  healthz: RequestListener;
  readyz: RequestListener;
  metrics: RequestListener;
  api: RequestListener;
  /** `/hooks/<model>/<trigger>`: signed webhook deliveries (webhooks/endpoint.ts). */
  hooks: RequestListener;
  /** `/api/files/…`: answer forms' file uploads and downloads (files/endpoint.ts). */
  files: RequestListener;
  /** `/mail/act/…`: one-click links of notification e-mails (server/notify). */
  mail: RequestListener;
  /** Everything else (the studio). Default: 404 JSON. */
  fallback?: RequestListener;
}

export function notFound(_req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 404, { error: { code: 'not_found', message: 'no such path' } });
}

/**
 * The level of a request's log line: a request that went well at debug (one line per API call at
 * info cost ~3 % of the server's CPU per call, and buried everything else), a refused one
 * (4xx) at info, a failed one (5xx) at warn.
 */
const levelOf = (status: number): 'debug' | 'info' | 'warn' => (status >= 500 ? 'warn' : status >= 400 ? 'info' : 'debug');

/** The handler of a path under one of the prefixes of the API, the hooks and the files. */
function prefixed(routes: Routes, path: string): RequestListener | undefined {
  if (path.startsWith(API_BASE)) return routes.api;
  if (path.startsWith(HOOKS_BASE)) return routes.hooks;
  if (path.startsWith(FILES_BASE)) return routes.files;
  if (path.startsWith(MAIL_LINKS_BASE)) return routes.mail;
  return undefined;
}

export function dispatcher(routes: Routes, log: Logger): RequestListener {
  const exact: Record<string, RequestListener> = { '/healthz': routes.healthz, '/readyz': routes.readyz, '/metrics': routes.metrics };
  return (req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    // a response finishes once: `on` spares `once`'s wrapper; the line is built only when its level logs
    res.on('finish', () => {
      const level = levelOf(res.statusCode);
      if (!log.isLevelEnabled(level)) return;
      const ms = performance.now() - started;
      log[level]({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    const handler = exact[path] ?? prefixed(routes, path) ?? routes.fallback ?? notFound;
    Promise.resolve(handler(req, res)).catch((err: unknown) => {
      log.error({ path, err: err instanceof Error ? err.message : String(err) }, 'request handler failed');
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'internal', message: 'internal error' } });
      else res.end();
    });
  };
}
