/**
 * A yes/no choice of the user kept in this browser (localStorage), e.g. the run graph's "follow"
 * and "left to right". State: the flag, read once when the component mounts (the fallback when the
 * browser keeps nothing or storage is off); `set` changes it and writes it through.
 */
'use client';
import { useCallback, useState } from 'react';

const PREFIX = 'acts.';

/** The flag as the browser keeps it now (`fallback` when it keeps nothing or storage is off). */
export function storedFlag(key: string, fallback: boolean): boolean {
  try {
    const raw = window.localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : raw === '1';
  } catch {
    return fallback;
  }
}

export function useStoredFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const [flag, setFlag] = useState(() => (typeof window === 'undefined' ? fallback : storedFlag(key, fallback)));
  const set = useCallback(
    (value: boolean) => {
      setFlag(value);
      try {
        window.localStorage.setItem(PREFIX + key, value ? '1' : '0');
      } catch {
        // storage off (private mode): the choice lasts as long as the page
      }
    },
    [key],
  );
  return [flag, set];
}
