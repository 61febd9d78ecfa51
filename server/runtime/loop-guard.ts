/**
 * Health guard of one store-facing timer loop (spec 5.10). States: healthy → (failures ≥
 * threshold) degraded, skipping a growing number of ticks between attempts (1, 2, 4 … up to
 * `maxSkip`) → healthy again on the first clean tick.
 */
export interface LoopHealth {
  name: string;
  consecutiveFailures: number;
  degraded: boolean;
  /** Ticks still to skip before the next attempt. */
  skipRemaining: number;
  /** Ticks skipped between attempts while degraded. */
  backoff: number;
  lastError: string | null;
  lastSuccess: number;
}

export class LoopGuard {
  private failures = 0;
  private skip = 0;
  private backoff = 0;
  private lastError: string | null = null;
  private lastSuccess = 0;

  constructor(
    readonly name: string,
    private readonly threshold = 3,
    private readonly maxSkip = 32,
  ) {}

  /** Whether this tick should run the loop's work. */
  attempt(): boolean {
    if (this.skip > 0) {
      this.skip--;
      return false;
    }
    return true;
  }

  failed(err: unknown, now: number): void {
    void now;
    this.failures++;
    this.lastError = err instanceof Error ? err.message : String(err);
    if (this.failures >= this.threshold) {
      this.backoff = this.backoff === 0 ? 1 : Math.min(this.maxSkip, this.backoff * 2);
      this.skip = this.backoff;
    }
  }

  recovered(now: number): void {
    this.failures = 0;
    this.skip = 0;
    this.backoff = 0;
    this.lastError = null;
    this.lastSuccess = now;
  }

  health(): LoopHealth {
    return {
      name: this.name,
      consecutiveFailures: this.failures,
      degraded: this.failures >= this.threshold,
      skipRemaining: this.skip,
      backoff: this.backoff,
      lastError: this.lastError,
      lastSuccess: this.lastSuccess,
    };
  }
}
