/**
 * `afterPaint(run)`: runs `run` once the browser has painted the current frame (the next animation
 * frame, then a task after it), so work that the first view does not need — the YAML editor of a
 * big model, say — does not hold that view back. Returns a cancel function.
 *
 * `idleAfterPaint(run)`: the same, but in the first idle time after that paint (after the tasks
 * already waiting, the page's own timers among them), or after `latestMs` at the latest (a hidden
 * tab paints no frames; a busy page has no idle time).
 */
export function afterPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

export function idleAfterPaint(run: () => void, latestMs = 250): () => void {
  let idle: (() => void) | undefined;
  const cancel = () => {
    cancelAnimationFrame(frame);
    clearTimeout(latest);
    idle?.();
  };
  const once = () => {
    cancel();
    run();
  };
  const frame = requestAnimationFrame(() => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(once, { timeout: latestMs });
      idle = () => cancelIdleCallback(handle);
    } else {
      const timer = setTimeout(once, 0);
      idle = () => clearTimeout(timer);
    }
  });
  const latest = setTimeout(once, latestMs);
  return cancel;
}
