/**
 * Health guard of one store-facing timer loop (spec 5.10). States: healthy → (failures ≥
 * threshold) degraded, skipping a growing number of ticks between attempts (1, 2, 4 … up to
 * `maxSkip`) → healthy again on the first clean tick. The two transitions are events
 * (`loopDegraded`, `loopRecovered`); every failed tick is an error line.
 */
import { errorMessage } from '../engine/errors.ts';
import type { Logger } from '../engine/logger.ts';
import type { EngineEvents, TypedEmitter } from './events.ts';

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
  /** When the loop degraded (null: healthy). */
  private degradedSince: number | null = null;

  constructor(
    readonly name: string,
    private readonly events: TypedEmitter<EngineEvents> | null = null,
    private readonly threshold = 3,
    private readonly maxSkip = 32,
  ) {}

  /** Runs the loop's work of one tick unless the guard skips it; a failure is logged and counted. */
  async run(now: number, log: Logger, work: () => Promise<void>): Promise<void> {
    if (!this.attempt()) return;
    try {
      await work();
      this.recovered(now);
    } catch (err) {
      this.failed(err, now);
      log.error(`${this.name} tick failed: ${errorMessage(err)}`);
    }
  }

  /** Whether this tick should run the loop's work. */
  attempt(): boolean {
    if (this.skip > 0) {
      this.skip--;
      return false;
    }
    return true;
  }

  failed(err: unknown, now: number): void {
    this.failures++;
    this.lastError = err instanceof Error ? err.message : String(err);
    if (this.failures < this.threshold) return;
    this.backoff = this.backoff === 0 ? 1 : Math.min(this.maxSkip, this.backoff * 2);
    this.skip = this.backoff;
    if (this.degradedSince !== null) return;
    this.degradedSince = now;
    this.events?.emit('loopDegraded', { loop: this.name, failures: this.failures, since: now, backoff: this.backoff, error: this.lastError });
  }

  recovered(now: number): void {
    const { failures, degradedSince: since } = this;
    this.failures = 0;
    this.skip = 0;
    this.backoff = 0;
    this.lastError = null;
    this.lastSuccess = now;
    this.degradedSince = null;
    if (since !== null) this.events?.emit('loopRecovered', { loop: this.name, failures, since });
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
