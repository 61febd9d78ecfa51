/**
 * Asks before the designer is left while `active` (changes the server does not hold yet):
 * - a reload, closing the tab, another address: the browser's own `beforeunload` question;
 * - a click on a link to another page of the studio (the sidebar, the models list): the click is
 *   held before the router sees it and `pending` names where it led; `leave()` goes there,
 *   `stay()` forgets it.
 * - the browser's back (or forward) button within the studio: the step is held before the
 *   router sees it (history-steps.ts), the history moves back to the designer's entry, and
 *   `pending` holds the way out; `leave()` takes that step through history again, this time to
 *   the router.
 *
 * State: idle → asking (`pending` set) → idle (stay, or leave: the router navigates). Own history
 * moves: `returning` (the step back to the designer's entry, whose `popstate` nobody must see) and
 * `leaving` (the chosen step away, which the router handles).
 */
'use client';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { holdHistorySteps } from '../shell/history-steps.ts';

/** The in-app address a click on `event.target` would open, or null (not a plain left click on a studio link to another page). */
function heldLink(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const here = window.location.pathname + window.location.search;
  const there = url.pathname + url.search;
  return there === here ? null : there + url.hash;
}

export interface LeaveGuard {
  asking: boolean;
  /** Runs `navigate` now, or once the user chose to leave. */
  go(navigate: () => void): void;
  stay(): void;
  leave(): void;
}

/** The index of the current history entry where the browser has the Navigation API (Chromium), else null. */
function historyIndex(): number | null {
  const nav = (window as { navigation?: { currentEntry?: { index: number } | null } }).navigation;
  return nav?.currentEntry?.index ?? null;
}

export function useLeaveGuard(active: boolean): LeaveGuard {
  const router = useRouter();
  const [pending, setPending] = useState<{ navigate: () => void } | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;
  const returning = useRef(false);
  const leaving = useRef(false);
  /** The designer's own history entry, when the browser can tell (back and forward are told apart). */
  const here = useRef<number | null>(null);
  useEffect(() => {
    here.current = historyIndex();
  }, []);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!activeRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    // capture, on the document: before the router's own click handler on the link
    const onClick = (event: MouseEvent) => {
      if (!activeRef.current) return;
      const href = heldLink(event);
      if (!href) return;
      event.preventDefault();
      event.stopPropagation();
      setPending({ navigate: () => router.push(href) });
    };
    // seen before the router's own popstate handler (history-steps.ts); true: the router must not see it
    const onHistoryStep = (): boolean => {
      if (returning.current) {
        returning.current = false;
        here.current = historyIndex();
        return true;
      }
      if (leaving.current || !activeRef.current) {
        leaving.current = false;
        return false;
      }
      const now = historyIndex();
      // back to the designer's entry (without the Navigation API: assume the back button, by far the usual one)
      const step = here.current !== null && now !== null ? here.current - now : 1;
      returning.current = true;
      window.history.go(step);
      setPending({
        navigate: () => {
          leaving.current = true;
          window.history.go(-step);
        },
      });
      return true;
    };
    const release = holdHistorySteps(onHistoryStep);
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      release();
      document.removeEventListener('click', onClick, true);
    };
  }, [router]);

  return {
    asking: pending !== null,
    go: useCallback((navigate: () => void) => (activeRef.current ? setPending({ navigate }) : navigate()), []),
    stay: useCallback(() => setPending(null), []),
    leave: useCallback(() => {
      pending?.navigate();
      setPending(null);
    }, [pending]),
  };
}
