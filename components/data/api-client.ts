/**
 * The studio's tRPC client: batched HTTP calls to `/api/trpc` on the same origin (a few big reads
 * alone: `ALONE`), with the
 * session cookie (`credentials: 'include'`) and the CSRF header every cookie-signed mutation
 * needs. `api` is typed by the server's `AppRouter`; `callQuery` and `callMutation` call a
 * procedure by its dotted path (what the React Query helpers use).
 */
import { createTRPCClient, getUntypedClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import type { AppRouter } from '../../server/api/router.ts';
import type { ApiInput, ApiOutput, MutationPath, QueryPath } from './api-types.ts';

export const API_URL = '/api/trpc';

/** The header the server's CSRF check asks for (server/api/context.ts `CSRF_HEADER`). */
export const CSRF_HEADERS = { 'x-acts-csrf': '1' } as const;

/**
 * Reads sent alone, never in a batch: a page starts work on their big answers at once (the run
 * page reads the graph of a process's model while the server still gathers its tasks); in a batch
 * they would wait for the slowest read beside them.
 */
const ALONE = new Set(['processes.graph']);

const common = {
  url: API_URL,
  headers: () => CSRF_HEADERS,
  fetch: (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'include' }),
};

export const api = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => ALONE.has(op.path),
      true: httpLink(common),
      false: httpBatchLink({ ...common, maxURLLength: 4000 }),
    }),
  ],
});

const untyped = getUntypedClient(api);

export function callQuery<P extends QueryPath>(path: P, input: ApiInput<P>, signal?: AbortSignal): Promise<ApiOutput<P>> {
  return untyped.query(path, input, { signal }) as Promise<ApiOutput<P>>;
}

export function callMutation<P extends MutationPath>(path: P, input: ApiInput<P>): Promise<ApiOutput<P>> {
  return untyped.mutation(path, input) as Promise<ApiOutput<P>>;
}
