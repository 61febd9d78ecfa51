/** The tRPC API mounted at `/api/trpc` (Node standalone adapter), with the 1 MiB body limit. */
import type { RequestListener } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { createContext, type ApiServices } from '../api/context.ts';
import { toActError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { appRouter } from '../api/router.ts';

export const API_BASE = '/api/trpc/';

export function apiHandler(services: ApiServices): RequestListener {
  return createHTTPHandler({
    router: appRouter,
    basePath: API_BASE,
    maxBodySize: LIMITS.bodyBytes,
    createContext: ({ req, res }) => createContext(services, req, res),
    onError({ error, path, type }) {
      const act = toActError(error);
      if (act.code !== 'internal') return;
      const cause = error.cause ?? error;
      services.log.error({ path, type, err: cause instanceof Error ? { message: cause.message, stack: cause.stack } : String(cause) }, 'API call failed');
    },
  });
}
