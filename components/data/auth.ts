/**
 * Who is signed in, for every client component: `useMe()` reads `auth.me` once (React Query
 * shares it) and answers role questions; `useSignOut()` ends the session and forgets every cached
 * read of this user. An `auth.required` from any call flips `useMe()` to signed-out
 * (query-client.ts), and the shell then sends the user to /login.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApiError } from './api-error.ts';
import { callMutation } from './api-client.ts';
import { apiKey } from './query-keys.ts';
import { can, type Caller, type Permission } from './roles.ts';
import { useApiQuery } from './use-api.ts';

export type MeStatus = 'loading' | 'signed-in' | 'signed-out' | 'error';

export interface Me {
  status: MeStatus;
  caller: Caller | null;
  /** Set when `auth.me` itself failed (server unreachable …). */
  error: ApiError | null;
  can(permission: Permission): boolean;
}

export function useMe(): Me {
  const me = useApiQuery('auth.me', undefined, { staleTime: 60_000 });
  const caller = me.data?.caller ?? null;
  const status: MeStatus = me.data ? (caller ? 'signed-in' : 'signed-out') : me.isError ? 'error' : 'loading';
  return { status, caller, error: me.error, can: (permission) => can(caller, permission) };
}

/** Marks the user signed in (after `auth.login`) without another round trip. */
export function useSetSignedIn(): (caller: Caller) => void {
  const queryClient = useQueryClient();
  return useCallback((caller) => queryClient.setQueryData(apiKey('auth.me'), { caller }), [queryClient]);
}

/** Ends the session; resolves once the cache is cleared and `useMe()` says signed-out. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    try {
      await callMutation('auth.logout', undefined);
    } finally {
      queryClient.clear();
      queryClient.setQueryData(apiKey('auth.me'), { caller: null });
    }
  }, [queryClient]);
}
