/**
 * Seconds left until `seconds` (counted from when `since` last changed) run out, ticking once
 * a second; 0 when nothing is counting. `since` identifies the event that started the wait.
 * State: idle (0) → counting (n … 1, one tick a second) → idle.
 */
import { useEffect, useState } from 'react';

export function useCountdown(seconds: number | undefined, since: unknown): number {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!seconds || seconds <= 0) {
      setLeft(0);
      return;
    }
    const until = Date.now() + seconds * 1000;
    const tick = () => setLeft(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [seconds, since]);
  return left;
}
