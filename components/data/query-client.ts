/**
 * The React Query client of the studio: coded API errors are not retried (only network trouble
 * and a busy engine are), data stays fresh for a while because live events keep it current, and
 * an `auth.required` anywhere marks the user signed out (the shell then sends them to /login).
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toApiError } from './api-error.ts';
import { apiKey } from './query-keys.ts';

const MAX_RETRIES = 3;

export function createQueryClient(): QueryClient {
  const signedOut = (err: unknown) => {
    if (toApiError(err).code === 'auth.required') client.setQueryData(apiKey('auth.me'), { caller: null });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: signedOut }),
    mutationCache: new MutationCache({ onError: signedOut }),
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => count < MAX_RETRIES && toApiError(err).retryable,
        retryDelay: (count) => Math.min(500 * 2 ** count, 5_000),
      },
      mutations: { retry: false },
    },
  });
  return client;
}
