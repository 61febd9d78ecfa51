/**
 * A duration as the run pages show it; while the thing has not ended it ticks every second
 * (one timer per shown duration, only while it runs). State: none of its own (see `useNow`).
 */
'use client';
import { useNow } from '../inbox/use-now.ts';
import { formatDuration } from './format.ts';

const TICK_MS = 1000;

/** `start`→`end`; when `running`, `start`→now, re-read each second. */
export function Duration({ start, end, running }: { start: number; end: number; running: boolean }) {
  return running && end <= 0 && start > 0 ? <Ticking start={start} /> : <>{formatDuration(start, end)}</>;
}

function Ticking({ start }: { start: number }) {
  const now = useNow(TICK_MS);
  return <>{formatDuration(start, 0, Math.max(now, start))}</>;
}
