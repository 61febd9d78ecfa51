/**
 * The number the navigation's Inbox badge shows: the caller's open tasks — those they hold
 * (`inbox.list` view `mine`) and those offered to them and their groups that no one holds (view
 * `groups`) — two one-row reads of the counts, kept live by the `inbox` room: any task added,
 * removed or changing hands reads them again, at most once a second (the badge need not be
 * faster, and every open page reads them), and once more SETTLE_MS after the last event. Each
 * new task the room announces goes to `onArrived` (the browser notification, which itself only
 * shows while the page is hidden).
 * State: the reads live in React Query's cache; the two pending refresh timers.
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
/** A second read after the last event: once (in four e2e runs) a read a second after a `removed` event still counted the task. */
const SETTLE_MS = 4000;

export function useInboxBadge(enabled: boolean, onArrived: (item: InboxItem) => void): number | null {
  const mine = useApiQuery('inbox.list', MINE, { enabled });
  const groups = useApiQuery('inbox.list', GROUPS, { enabled });
  const queryClient = useQueryClient();
  const timers = useRef<{ soon: ReturnType<typeof setTimeout> | null; settle: ReturnType<typeof setTimeout> | null }>({ soon: null, settle: null });
  useEffect(() => () => Object.values(timers.current).forEach((t) => clearTimeout(t ?? undefined)), []);
  const cursor = mine.data && groups.data ? Math.min(mine.data.cursor, groups.data.cursor) : null;
  useLive(enabled && cursor !== null ? liveRoom.inbox : null, cursor, (event: LiveEvent) => {
    if (event.type === 'catchup' && !event.data.resync && !event.data.inbox?.length) return;
    if (event.type === 'inbox' && event.data.change === 'commented') return;
    if (event.type === 'inbox' && event.data.change === 'added' && event.data.item) onArrived(event.data.item as InboxItem);
    const read = () => {
      for (const input of [MINE, GROUPS]) void queryClient.invalidateQueries({ queryKey: apiKey('inbox.list', input) });
    };
    const t = timers.current;
    t.soon ??= setTimeout(() => {
      t.soon = null;
      read();
    }, REFRESH_MS);
    if (t.settle) clearTimeout(t.settle);
    t.settle = setTimeout(() => {
      t.settle = null;
      read();
    }, SETTLE_MS);
  });
  if (!mine.data || !groups.data) return null;
  return mine.data.count + groups.data.count;
}
