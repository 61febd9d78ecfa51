/**
 * Operations endpoints: `/healthz` (liveness: the process answers), `/readyz` (the engine
 * recovered its processes, serves, and the store answers a query within `timeoutMs`; 503 with
 * `{ status: 'recovering', recovering: true, loaded, total }` while recovery runs),
 * `/metrics` (Prometheus text).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../runtime/engine.ts';
import type { Metrics } from './metrics.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function healthz(_req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 200, { status: 'ok' });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

export function readyz(engine: Engine, isClosing: () => boolean, timeoutMs = 2000) {
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (isClosing()) return sendJson(res, 503, { status: 'closing' });
    const { recovery } = engine.health();
    if (recovery.recovering) return sendJson(res, 503, { status: 'recovering', recovering: true, loaded: recovery.loaded, total: recovery.total, instance: engine.instanceId });
    if (recovery.error) return sendJson(res, 503, { status: 'unavailable', reason: `recovering the unfinished processes failed: ${recovery.error}` });
    try {
      await withTimeout(engine.models.list({ limit: 1 }), timeoutMs);
      sendJson(res, 200, { status: 'ready', recovering: false, instance: engine.instanceId, loops: engine.health().loops.map((l) => ({ name: l.name, degraded: l.degraded })) });
    } catch (err) {
      sendJson(res, 503, { status: 'unavailable', reason: err instanceof Error && /no answer/.test(err.message) ? err.message : 'the store did not answer' });
    }
  };
}

export function metricsEndpoint(metrics: Metrics) {
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(body);
  };
}
