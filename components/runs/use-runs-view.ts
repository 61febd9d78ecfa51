/**
 * The runs list's view (filters, sort, page), kept in the URL (runs-view.ts). State: the view
 * itself, local so inputs never wait for the router; each change is written to the URL with
 * `history.replaceState` (Next.js keeps `useSearchParams` in step, no navigation), and a URL
 * changed from outside — a link such as the overview's `/runs?state=error`, back/forward — is
 * read again. `useSearchParams` reports the URLs written here late (in a transition): until it
 * reports a new search nothing is read, and a search it reports that was written here — even
 * late, after another was written — is an echo, not a change from outside (read again, a late
 * echo of a search just cleared brought it back: Clear filters sometimes did not clear).
 */
'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useRef, useState } from 'react';
import { parseRunsView, runsViewSearch, type RunsView } from './runs-view.ts';

export function useRunsView(): [RunsView, (next: RunsView) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const search = params.toString();
  // `seen`: the search the router reported last; a render in which it has not reported a new one
  // yet (it lags behind replaceState) changes nothing
  const [current, setCurrent] = useState(() => ({ seen: search, view: parseRunsView(params) }));
  /** Searches written here and not reported by the router yet, oldest first. */
  const written = useRef<string[]>([]);
  let view = current.view;
  if (search !== current.seen) {
    const echo = written.current.indexOf(search);
    if (echo >= 0) written.current.splice(0, echo + 1);
    // a URL changed from outside is read again; an echo of one written here (even a late one, of a
    // search changed again since) is not a change
    if (echo < 0 && search !== runsViewSearch(view)) view = parseRunsView(params);
    setCurrent({ seen: search, view });
  }
  const change = useCallback(
    (next: RunsView) => {
      const nextSearch = runsViewSearch(next);
      written.current.push(nextSearch);
      setCurrent((prev) => ({ seen: prev.seen, view: next }));
      window.history.replaceState(null, '', nextSearch ? `${pathname}?${nextSearch}` : pathname);
    },
    [pathname],
  );
  return [view, change];
}
