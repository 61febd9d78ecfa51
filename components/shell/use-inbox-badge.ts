/**
 * The number the navigation's Inbox badge shows: the caller's open tasks — those they hold
 * (`inbox.list` view `mine`) and those offered to them and their groups that no one holds (view
 * `groups`) — two one-row reads of the counts, kept live by the `inbox` room: any task added,
 * removed or changing hands reads them again, at most once a second (the badge need not be
 * faster, and every open page reads them). Each new task the room announces goes to `onArrived`
 * (the browser notification, which itself only shows while the page is hidden).
 * State: the reads live in React Query's cache; the pending refresh timer.
 */
'use client';
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { liveRoom, useLive, type LiveEvent } from '../data/live.tsx';
import type { InboxItem } from '../data/live-events.ts';
import { apiKey } from '../data/query-keys.ts';
import { useApiQuery } from '../data/use-api.ts';

const MINE = { view: 'mine', offset: 0, limit: 1 } as const;
const GROUPS = { view: 'groups', offset: 0, limit: 1 } as const;
const REFRESH_MS = 1000;

export function useInboxBadge(enabled: boolean, onArrived: (item: InboxItem) => void): number | null {
  const mine = useApiQuery('inbox.list', MINE, { enabled });
  const groups = useApiQuery('inbox.list', GROUPS, { enabled });
  const queryClient = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  const cursor = mine.data && groups.data ? Math.min(mine.data.cursor, groups.data.cursor) : null;
  useLive(enabled && cursor !== null ? liveRoom.inbox : null, cursor, (event: LiveEvent) => {
    if (event.type === 'catchup' && !event.data.resync && !event.data.inbox?.length) return;
    if (event.type === 'inbox' && event.data.change === 'commented') return;
    if (event.type === 'inbox' && event.data.change === 'added' && event.data.item) onArrived(event.data.item as InboxItem);
    pending.current ??= setTimeout(() => {
      pending.current = null;
      for (const input of [MINE, GROUPS]) void queryClient.invalidateQueries({ queryKey: apiKey('inbox.list', input) });
    }, REFRESH_MS);
  });
  if (!mine.data || !groups.data) return null;
  return mine.data.count + groups.data.count;
}
