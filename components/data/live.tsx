/**
 * React side of the live channel: <LiveProvider> owns the studio's one LiveClient while the
 * shell is mounted (signed in); `useLive` subscribes a component to a room; `useLiveStatus`
 * feeds the connection indicator; `useLiveRefetch` refreshes reads whenever a room has news.
 */
'use client';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiError } from './api-error.ts';
import type { QueryPath } from './api-types.ts';
import { LiveClient, type LiveStatus } from './live-client.ts';
import type { LiveEvent } from './live-events.ts';

export { liveRoom, type LiveEvent } from './live-events.ts';
import { apiKey } from './query-keys.ts';

const LiveContext = createContext<LiveClient | null>(null);

/** Connects while mounted and `enabled` (signed in); `onDenied` runs when the server refuses the socket. */
export function LiveProvider({ children, enabled = true, onDenied }: { children: ReactNode; enabled?: boolean; onDenied?: () => void }) {
  const deniedRef = useRef(onDenied);
  deniedRef.current = onDenied;
  const [client, setClient] = useState<LiveClient | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const live = new LiveClient(() => deniedRef.current?.());
    live.start();
    setClient(live);
    return () => {
      live.close();
      setClient(null);
    };
  }, [enabled]);
  return <LiveContext.Provider value={client}>{children}</LiveContext.Provider>;
}

const noWatch = () => () => undefined;

/** The connection's state ('idle' outside a LiveProvider and before it connects). */
export function useLiveStatus(): LiveStatus {
  const client = useContext(LiveContext);
  return useSyncExternalStore(client?.watch ?? noWatch, () => client?.getStatus() ?? 'idle', () => 'idle');
}

/**
 * Listens to `room` (`proc:<pid>`, `model:<mid>`, `inbox`, `health`; null: not yet) from
 * `cursor` on — the `cursor` of the tRPC read the component shows, so nothing between that read
 * and the join is lost. The cursor is taken when the room is joined; later reads do not rejoin.
 * `onEvent` may change on every render. Returns the join error (e.g. `auth.forbidden`), if any.
 */
export function useLive(room: string | null, cursor: number | null, onEvent: (event: LiveEvent) => void): { error: ApiError | null } {
  const client = useContext(LiveContext);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const cursorRef = useRef(cursor);
  cursorRef.current = cursor;
  useEffect(() => {
    if (!client || !room) return;
    return client.subscribe(room, cursorRef.current, (event) => handler.current(event));
  }, [client, room]);
  const error = useSyncExternalStore(client?.watch ?? noWatch, () => (room ? (client?.roomError(room) ?? null) : null), () => null);
  return { error };
}

const REFETCH_EVERY_MS = 500;

/**
 * Refreshes the reads of `paths` (every input) when `room` has news, at most every half second:
 * the simple way to keep a list live. A catch-up that brings nothing new refreshes nothing.
 */
export function useLiveRefetch(room: string | null, cursor: number | null, paths: QueryPath[]): { error: ApiError | null } {
  const queryClient = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pathsRef = useRef(paths);
  pathsRef.current = paths;
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  return useLive(room, cursor, (event) => {
    if (event.type === 'catchup' && !hasNews(event.data)) return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      for (const path of pathsRef.current) void queryClient.invalidateQueries({ queryKey: apiKey(path) });
    }, REFETCH_EVERY_MS);
  });
}

function hasNews(data: Extract<LiveEvent, { type: 'catchup' }>['data']): boolean {
  return Boolean(data.resync || data.tasks?.length || data.messages?.length || data.processes?.length || data.inbox?.length || data.process);
}
