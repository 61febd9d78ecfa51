/**
 * The tRPC API mounted at `/api/trpc`, with the 1 MiB body limit: plain calls through the fast
 * path (plain-call.ts), everything else through tRPC's Node standalone adapter.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { createContext, type ApiServices } from '../api/context.ts';
import { toActError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { appRouter } from '../api/router.ts';
import { plainCallHandler } from './plain-call.ts';

export const API_BASE = '/api/trpc/';

/** Logs a call that failed inside (`internal`); refusals are the caller's business. */
function reportInternal(services: ApiServices) {
  return ({ error, path, type }: { error: TRPCError; path?: string; type: string; req?: IncomingMessage }) => {
    const act = toActError(error);
    if (act.code !== 'internal') return;
    const cause = error.cause ?? error;
    services.log.error({ path, type, err: cause instanceof Error ? { message: cause.message, stack: cause.stack } : String(cause) }, 'API call failed');
  };
}

/** What both transports of the API are given. */
const mounted = (services: ApiServices) => ({ router: appRouter, basePath: API_BASE, maxBodySize: LIMITS.bodyBytes, onError: reportInternal(services) });

/** tRPC's own adapter for the API (batches, and every call the fast path leaves to it). */
export function trpcHandler(services: ApiServices): RequestListener {
  return createHTTPHandler({ ...mounted(services), createContext: ({ req, res }) => createContext(services, req, res) });
}

/** The API's listener; `fallback` answers what the fast path does not (default: tRPC's adapter). */
export function apiHandler(services: ApiServices, fallback: RequestListener = trpcHandler(services)): RequestListener {
  return plainCallHandler({ ...mounted(services), createContext: (req, res) => createContext(services, req, res), fallback });
}
