/**
 * The runs list's view (filters, sort, page), kept in the URL (runs-view.ts). State: the view
 * itself, local so inputs never wait for the router; each change is written to the URL with
 * `history.replaceState` (Next.js keeps `useSearchParams` in step, no navigation), and a URL
 * changed from outside — a link such as the overview's `/runs?state=error`, back/forward — is
 * read again.
 */
'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { parseRunsView, runsViewSearch, type RunsView } from './runs-view.ts';

export function useRunsView(): [RunsView, (next: RunsView) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const search = params.toString();
  const [current, setCurrent] = useState(() => ({ search, view: parseRunsView(params) }));
  let view = current.view;
  if (search !== current.search && search !== runsViewSearch(current.view)) {
    view = parseRunsView(params);
    setCurrent({ search, view });
  }
  const change = useCallback(
    (next: RunsView) => {
      const nextSearch = runsViewSearch(next);
      setCurrent({ search: nextSearch, view: next });
      window.history.replaceState(null, '', nextSearch ? `${pathname}?${nextSearch}` : pathname);
    },
    [pathname],
  );
  return [view, change];
}
