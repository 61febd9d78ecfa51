/**
 * The studio's first `popstate` listener: installed as the root layout's providers load, before
 * the App Router registers its own as it mounts, so a page can hold a step through the history
 * (the back or forward button) that the router must not act on (use-leave-guard.ts).
 *
 * State: not installed → installed (once per tab); the holder: none, or the one page asking
 * before it is left.
 */

/** Sees a history step first; true keeps it from the router (and every later listener). */
type Holder = (event: PopStateEvent) => boolean;

let holder: Holder | null = null;
let installed = false;

export function installHistorySteps(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener(
    'popstate',
    (event) => {
      if (holder?.(event)) event.stopImmediatePropagation();
    },
    true,
  );
}

/** `hold` sees every history step from now on; returns its release. */
export function holdHistorySteps(hold: Holder): () => void {
  holder = hold;
  return () => {
    if (holder === hold) holder = null;
  };
}
