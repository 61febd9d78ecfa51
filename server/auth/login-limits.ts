/**
 * Failed-login limits, per user name and per client address (kept in this process's memory:
 * each server instance counts its own).
 *
 * State: one FailureWindow per dimension. A failed login counts against both its name and its
 * address; a successful one clears its name (not its address, or one valid account would reset
 * guessing at others). A blocked attempt is refused before the password is checked and does not
 * count, so waiting `retryAfterSecs` always unblocks.
 */
import type { Clock } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import { FailureWindow, type WindowLimit } from './failure-window.ts';

export interface LoginLimitOptions {
  /** Default: 5 failures in 5 minutes. */
  perName?: WindowLimit;
  /** Default: 20 failures in 5 minutes (several people may share one address). */
  perIp?: WindowLimit;
}

const FIVE_MINUTES = 5 * 60_000;
export const DEFAULT_LOGIN_LIMITS: Required<LoginLimitOptions> = {
  perName: { max: 5, windowMs: FIVE_MINUTES },
  perIp: { max: 20, windowMs: FIVE_MINUTES },
};

const nameKey = (name: unknown): string => String(name).toLowerCase();

export class LoginLimits {
  private readonly names: FailureWindow;
  private readonly ips: FailureWindow;

  constructor(clock: Clock, options: LoginLimitOptions = {}) {
    this.names = new FailureWindow(options.perName ?? DEFAULT_LOGIN_LIMITS.perName, clock);
    this.ips = new FailureWindow(options.perIp ?? DEFAULT_LOGIN_LIMITS.perIp, clock);
  }

  /** Throws `auth.rate_limited` (details `{ retryAfterSecs }`) while the name or the address is blocked. */
  check(name: unknown, ip: string): void {
    const retryAfterSecs = Math.max(this.names.retryAfterSecs(nameKey(name)), this.ips.retryAfterSecs(ip));
    if (retryAfterSecs > 0) {
      throw new ActError('auth.rate_limited', `too many failed sign-ins: try again in ${retryAfterSecs} s`, { retryAfterSecs });
    }
  }

  failed(name: unknown, ip: string): void {
    this.names.fail(nameKey(name));
    this.ips.fail(ip);
  }

  succeeded(name: string): void {
    this.names.clear(nameKey(name));
  }
}
