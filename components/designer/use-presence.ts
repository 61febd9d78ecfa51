/**
 * Who else has this model open in the designer: the `design:<mid>` live room's `presence` events
 * (server/api/live/presence.ts), without the caller's own name.
 *
 * State: the names of the last presence event (none before the first, or while `mid` is null).
 */
'use client';
import { useState } from 'react';
import { liveRoom, useLive } from '../data/live.tsx';

export function usePresence(mid: string | null, me: string | null): string[] {
  const [editors, setEditors] = useState<string[]>([]);
  useLive(mid ? liveRoom.design(mid) : null, null, (event) => {
    if (event.type === 'presence') setEditors(event.data.editors.map((e) => e.name));
  });
  return mid ? editors.filter((name) => name !== me) : [];
}

/** "ana is editing", "ana and bo are editing", "ana, bo and cy are editing"; '' for nobody. */
export function presenceSentence(names: readonly string[]): string {
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${list} ${names.length === 1 ? 'is' : 'are'} editing this model`;
}
