/**
 * React Query keys of API reads: `[path]` or `[path, input]`. Invalidating `[path]` refreshes
 * every read of that procedure, whatever its input.
 */
import type { QueryKey } from '@tanstack/react-query';
import type { ApiInput, QueryPath } from './api-types.ts';

export function apiKey<P extends QueryPath>(path: P, input?: ApiInput<P>): QueryKey {
  return input === undefined ? [path] : [path, input];
}
