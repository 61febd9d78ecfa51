/**
 * React Query over the API, by procedure path:
 *   const runs = useApiQuery('processes.list', { limit: 50 });
 *   const deploy = useApiMutation('models.deploy', { invalidates: ['models.list'] });
 * Errors are ApiErrors (`code`, `message`, `hint`), ready for <ErrorNote>.
 */
import {
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationOptions,
  type UseMutationResult,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { callMutation, callQuery } from './api-client.ts';
import { toApiError, type ApiError } from './api-error.ts';
import type { ApiInput, ApiOutput, MutationPath, QueryPath } from './api-types.ts';
import { apiKey } from './query-keys.ts';

export type ApiQueryOptions<P extends QueryPath, T> = Omit<UseQueryOptions<ApiOutput<P>, ApiError, T>, 'queryKey' | 'queryFn'> & {
  /** Added to the cache key, never sent: each view gets its own read of the same input (with `gcTime: 0`, a fresh one each time it shows). */
  view?: string;
};

/** Reads `path` with `input` (pass `undefined` for procedures whose input has defaults). */
export function useApiQuery<P extends QueryPath, T = ApiOutput<P>>(path: P, input: ApiInput<P>, options?: ApiQueryOptions<P, T>): UseQueryResult<T, ApiError> {
  const { view, ...rest } = options ?? {};
  return useQuery<ApiOutput<P>, ApiError, T>({
    queryKey: view === undefined ? apiKey(path, input) : [...apiKey(path, input), view],
    queryFn: ({ signal }) => callQuery(path, input, signal).catch((err: unknown) => Promise.reject(toApiError(err))),
    ...rest,
  });
}

export type ApiMutationOptions<P extends MutationPath> = Omit<UseMutationOptions<ApiOutput<P>, ApiError, ApiInput<P>>, 'mutationFn'> & {
  /** Reads refreshed after a success (every input of each path). */
  invalidates?: QueryPath[];
};

/** Calls `path`; on success refreshes the `invalidates` reads, then runs `onSuccess`. */
export function useApiMutation<P extends MutationPath>(path: P, options: ApiMutationOptions<P> = {}): UseMutationResult<ApiOutput<P>, ApiError, ApiInput<P>> {
  const queryClient = useQueryClient();
  const { invalidates = [], onSuccess, ...rest } = options;
  return useMutation<ApiOutput<P>, ApiError, ApiInput<P>>({
    mutationFn: (input) => callMutation(path, input).catch((err: unknown) => Promise.reject(toApiError(err))),
    ...rest,
    onSuccess: async (...args) => {
      await Promise.all(invalidates.map((key) => queryClient.invalidateQueries({ queryKey: apiKey(key) })));
      await onSuccess?.(...args);
    },
  });
}
