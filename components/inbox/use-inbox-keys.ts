/**
 * The inbox's keyboard: j/k move the cursor (and focus) through the list, Enter opens the task
 * under the cursor, a approves, r rejects, b sends back the open task. Keys typed into a field,
 * or with a modifier, are left alone. State: none (one document listener while mounted).
 */
'use client';
import { useEffect, useRef } from 'react';

export interface InboxKeys {
  move: (delta: 1 | -1) => void;
  open: () => void;
  decide: (kind: 'approve' | 'reject' | 'back') => void;
}

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useInboxKeys(keys: InboxKeys): void {
  const ref = useRef(keys);
  ref.current = keys;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const k = ref.current;
      const handled = (fn: () => void) => {
        e.preventDefault();
        fn();
      };
      if (e.key === 'j') handled(() => k.move(1));
      else if (e.key === 'k') handled(() => k.move(-1));
      else if (e.key === 'a') handled(() => k.decide('approve'));
      else if (e.key === 'r') handled(() => k.decide('reject'));
      else if (e.key === 'b') handled(() => k.decide('back'));
      else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement)) handled(k.open);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
