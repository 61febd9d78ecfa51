/**
 * Asks before the designer is left while `active` (changes the server does not hold yet):
 * - a reload, closing the tab, another address: the browser's own `beforeunload` question;
 * - a click on a link to another page of the studio (the sidebar, the models list): the click is
 *   held before the router sees it and `pending` names where it led; `leave()` goes there,
 *   `stay()` forgets it.
 * The browser's back button is not held (the App Router offers no way to block it).
 *
 * State: idle → asking (`pending` set) → idle (stay, or leave: the router navigates).
 */
'use client';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';

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

export function useLeaveGuard(active: boolean): LeaveGuard {
  const router = useRouter();
  const [pending, setPending] = useState<{ navigate: () => void } | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;

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
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
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
