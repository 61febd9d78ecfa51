/**
 * `afterPaint(run)`: runs `run` once the browser has painted the current frame (the next animation
 * frame, then a task after it), so work that the first view does not need — the YAML editor of a
 * big model, say — does not hold that view back. Returns a cancel function.
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
