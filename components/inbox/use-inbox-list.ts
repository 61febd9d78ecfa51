/**
 * The signed-in operator's inbox, live and paged: `inbox.list` of one view (vocab/inbox-views.ts; in the order chosen, with steps) read
 * 200 tasks at a time as an infinite query — `loadMore()` reads the next page — and kept fresh by
 * the `inbox` room (any added/removed task refetches every loaded page, and the own-approvals
 * list; a task that changed hands or got a vote also its open form). `onRemoved` hears every removal, so an open form can tell that its task was answered
 * elsewhere. State: the pages live in React Query's cache under `['inbox.list', { pages }]`, so
 * invalidating `inbox.list` refreshes them too.
 */
'use client';
import { useCallback, useMemo, useRef } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { callQuery } from '../data/api-client.ts';
import { toApiError, type ApiError } from '../data/api-error.ts';
import type { ApiOutput } from '../data/api-types.ts';
import { liveRoom, useLive, type LiveEvent } from '../data/live.tsx';
import { apiKey } from '../data/query-keys.ts';
import { orderInput, type InboxOrderChoice, type InboxView } from '../../vocab/inbox-views.ts';

export const PAGE_SIZE = 200;
export const INBOX_INPUT = { limit: PAGE_SIZE, newestFirst: true, withSteps: true } as const;
export type InboxRow = ApiOutput<'inbox.list'>['rows'][number] & { step?: { tid: string; id: string; name: string } | null };
type InboxPage = ApiOutput<'inbox.list'>;

const REFRESH_MS = 300;
/** Not `apiKey('inbox.list', input)`: an infinite query's data has another shape than a plain read's. */
const queryKey = (view: InboxView, order: InboxOrderChoice) => [...apiKey('inbox.list'), { pages: { ...INBOX_INPUT, view, order } }];

/** The rows of all loaded pages, each task once (a task added meanwhile shifts later pages by one). */
function uniqueRows(pages: readonly InboxPage[]): InboxRow[] {
  const seen = new Set<string>();
  const rows: InboxRow[] = [];
  for (const row of pages.flatMap((p) => p.rows) as InboxRow[]) {
    const key = `${row.pid}/${row.tid}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(row);
  }
  return rows;
}

export function useInboxList(view: InboxView, order: InboxOrderChoice, onRemoved: (pid: string, tid: string) => void) {
  const list = useInfiniteQuery<InboxPage, ApiError>({
    queryKey: queryKey(view, order),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      callQuery('inbox.list', { ...INBOX_INPUT, ...orderInput(order), view, offset: pageParam as number }, signal).catch((err: unknown) => Promise.reject(toApiError(err))),
    getNextPageParam: (last) => (last.offset + last.rows.length < last.count ? last.offset + last.limit : undefined),
  });
  const queryClient = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const removed = useRef(onRemoved);
  removed.current = onRemoved;
  const first = list.data?.pages[0];

  const refresh = () => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: apiKey('inbox.list') });
      void queryClient.invalidateQueries({ queryKey: apiKey('inbox.approvals') });
    }, REFRESH_MS);
  };

  const live = useLive(first ? liveRoom.inbox : null, first?.cursor ?? null, (event: LiveEvent) => {
    if (event.type === 'inbox') {
      if (event.data.change === 'removed') removed.current(event.data.pid, event.data.tid);
      // a task changed hands: an open form says who holds it now; a comment: the run's comments
      if (event.data.change === 'held' || event.data.change === 'voted') void queryClient.invalidateQueries({ queryKey: apiKey('inbox.form', { pid: event.data.pid, tid: event.data.tid }) });
      if (event.data.change === 'commented') void queryClient.invalidateQueries({ queryKey: apiKey('inbox.comments', { pid: event.data.pid }) });
      refresh();
    }
    if (event.type === 'catchup' && (event.data.resync || event.data.inbox?.length)) refresh();
  });

  const rows = useMemo(() => uniqueRows(list.data?.pages ?? []), [list.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { list, rows, count: first?.count ?? 0, loadMore, loadingMore: list.isFetchingNextPage, liveError: live.error };
}
