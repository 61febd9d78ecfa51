/**
 * The moment the run page replays, kept in the URL as `?at=<epoch ms>` (a link to a moment).
 *
 * State machine: live (`at` null: the page shows the run now) ⇄ replaying (`at` a time; paused or
 * playing at `speed`× real time). `seek(t)` enters replaying (or moves within it), `live()` leaves
 * it; playing stops at the end (use-replay.ts's clock). The URL is read once when the page opens
 * (its `at`), then written with `history.replaceState` (no navigation): on every change while
 * paused, at most twice a second while playing.
 */
'use client';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';

export const REPLAY_SPEEDS = [1, 2, 5, 10, 25, 50] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

const URL_WRITE_MS = 500;

export interface ReplayMoment {
  /** The replayed moment (epoch ms); null while live. */
  at: number | null;
  playing: boolean;
  speed: ReplaySpeed;
  seek(at: number): void;
  live(): void;
  setPlaying(playing: boolean): void;
  setSpeed(speed: ReplaySpeed): void;
}

/** `?at=` of a search as epoch ms; null when absent or not a time. */
export function parseAt(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

function writeUrl(at: number | null): void {
  const url = new URL(window.location.href);
  if (at === null) url.searchParams.delete('at');
  else url.searchParams.set('at', String(Math.round(at)));
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

export function useReplayMoment(): ReplayMoment {
  const params = useSearchParams();
  const [at, setAt] = useState<number | null>(() => parseAt(params.get('at')));
  const [playing, setPlayingState] = useState(false);
  const [speed, setSpeed] = useState<ReplaySpeed>(1);

  const lastWrite = useRef(0);
  useEffect(() => {
    const wait = playing ? lastWrite.current + URL_WRITE_MS - Date.now() : 0;
    const write = () => {
      lastWrite.current = Date.now();
      writeUrl(at);
    };
    if (wait <= 0) return write();
    const timer = setTimeout(write, wait);
    return () => clearTimeout(timer);
  }, [at, playing]);

  const seek = useCallback((t: number) => setAt(Math.round(t)), []);
  const live = useCallback(() => {
    setAt(null);
    setPlayingState(false);
  }, []);
  const setPlaying = useCallback((on: boolean) => setPlayingState(on), []);
  return { at, playing, speed, seek, live, setPlaying, setSpeed };
}
