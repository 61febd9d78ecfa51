/**
 * False while the server-rendered HTML is not yet interactive, true once React runs it. Forms
 * keep their submit button disabled until then, so a fast typist's submit is never a native
 * form post (which would put the password in a URL) and typed values are not lost.
 */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
