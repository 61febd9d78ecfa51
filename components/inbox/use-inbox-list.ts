/**
 * The signed-in operator's inbox, live: the `inbox.list` read (newest first, with steps) kept
 * fresh by the `inbox` room (any added/removed task refetches it and the own-approvals list).
 * `onRemoved` hears every removal, so an open form can tell that its task was answered elsewhere.
 */
'use client';
import { useRef } from 'react';
import { liveRoom, useLive, type LiveEvent } from '../data/live.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { apiKey } from '../data/query-keys.ts';
import { useApiQuery } from '../data/use-api.ts';
import type { ApiOutput } from '../data/api-types.ts';

export const INBOX_INPUT = { limit: 200, newestFirst: true, withSteps: true } as const;
export type InboxRow = ApiOutput<'inbox.list'>['rows'][number] & { step?: { tid: string; id: string; name: string } | null };

const REFRESH_MS = 300;

export function useInboxList(onRemoved: (pid: string, tid: string) => void) {
  const list = useApiQuery('inbox.list', INBOX_INPUT);
  const queryClient = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const removed = useRef(onRemoved);
  removed.current = onRemoved;

  const refresh = () => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: apiKey('inbox.list') });
      void queryClient.invalidateQueries({ queryKey: apiKey('inbox.approvals') });
    }, REFRESH_MS);
  };

  const live = useLive(list.data ? liveRoom.inbox : null, list.data?.cursor ?? null, (event: LiveEvent) => {
    if (event.type === 'inbox') {
      if (event.data.change === 'removed') removed.current(event.data.pid, event.data.tid);
      refresh();
    }
    if (event.type === 'catchup' && (event.data.resync || event.data.inbox?.length)) refresh();
  });

  const rows = (list.data?.rows ?? []) as InboxRow[];
  return { list, rows, liveError: live.error };
}
