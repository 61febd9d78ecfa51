/**
 * Exponential back-off per key: the first `free` failures cost nothing; after each further one
 * the key waits `baseMs`, then twice as long after the next, and so on up to `maxMs`.
 *
 * State: key → { failures, last failure time }. A key is `free` (no wait due) or `waiting`
 * (until last + its current delay); `fail` adds a failure (or, uncounted, only restarts the
 * current wait), `clear` (a success) and `forgetMs` without a failure drop the key. At most `maxKeys` keys are kept: the least recently failed
 * one is forgotten first, so a flood of distinct keys cannot grow memory.
 */
import type { Clock } from '../engine/clock.ts';

export interface BackoffLimit {
  /** Failures that cost no wait. */
  free: number;
  /** The wait after the first failure past `free`; it doubles with each further one. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** A key without a failure for this long starts again from zero. */
  forgetMs: number;
}

interface KeyState {
  failures: number;
  last: number;
}

export class Backoff {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly limit: BackoffLimit,
    private readonly clock: Clock,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whole seconds until `key` may try again; 0 when it may now. */
  retryAfterSecs(key: string): number {
    const record = this.current(key);
    if (!record || record.failures <= this.limit.free) return 0;
    const freeAt = record.last + this.delayMs(record.failures);
    const left = freeAt - this.clock.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Recent failures of `key`. */
  failures(key: string): number {
    return this.current(key)?.failures ?? 0;
  }

  /** A failure of `key`; `counted: false` restarts the current wait without lengthening it. */
  fail(key: string, counted = true): void {
    const failures = this.failures(key) + (counted ? 1 : 0);
    this.keys.delete(key); // re-inserted last: the Map's order is the order of last failure
    this.keys.set(key, { failures, last: this.clock.now() });
    if (this.keys.size > this.maxKeys) this.keys.delete(this.keys.keys().next().value as string);
  }

  clear(key: string): void {
    this.keys.delete(key);
  }

  /** The wait after the `failures`-th failure (more than `free`). */
  private delayMs(failures: number): number {
    const doublings = Math.min(failures - this.limit.free - 1, 52);
    return Math.min(this.limit.baseMs * 2 ** doublings, this.limit.maxMs);
  }

  private current(key: string): KeyState | undefined {
    const record = this.keys.get(key);
    if (record && this.clock.now() - record.last >= this.limit.forgetMs) {
      this.keys.delete(key);
      return undefined;
    }
    return record;
  }
}
