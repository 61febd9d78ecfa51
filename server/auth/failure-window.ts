/**
 * Counts failures per key in a sliding time window: a key with `max` failures in the last
 * `windowMs` is blocked until the oldest of them leaves the window.
 *
 * State: key → times of its recent failures (ascending, at most `max`, older ones dropped when
 * the key is touched). A key is `open` (fewer than `max` recent failures) or `blocked`; `fail`
 * moves it towards blocked, time or `clear` back to open. At most `maxKeys` keys are kept: the
 * least recently failed one is forgotten first, so a flood of distinct keys cannot grow memory.
 */
import type { Clock } from '../engine/clock.ts';

export interface WindowLimit {
  /** Failures that block the key. */
  max: number;
  windowMs: number;
}

export class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: WindowLimit,
    private readonly clock: Clock,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whole seconds until `key` may try again; 0 when it may now. */
  retryAfterSecs(key: string): number {
    const times = this.recent(key);
    if (times.length < this.limit.max) return 0;
    const freeAt = times[times.length - this.limit.max] + this.limit.windowMs;
    return Math.max(1, Math.ceil((freeAt - this.clock.now()) / 1000));
  }

  fail(key: string): void {
    const times = this.recent(key);
    times.push(this.clock.now());
    if (times.length > this.limit.max) times.splice(0, times.length - this.limit.max);
    this.failures.delete(key); // re-inserted last: the Map's order is the order of last failure
    this.failures.set(key, times);
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value as string);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const since = this.clock.now() - this.limit.windowMs;
    while (times.length > 0 && times[0] <= since) times.shift();
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}
