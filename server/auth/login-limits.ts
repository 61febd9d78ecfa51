/**
 * Failed-login limits, kept in this process's memory (each server instance counts its own).
 * They slow guessing down without locking a name for everyone, checked in this order:
 * 1. per address (`perIp`, all names): that many failures in the window block the address —
 *    someone guessing at many names;
 * 2. per name and address (`perNameAndIp`): exponential back-off — one address guessing one
 *    name waits longer after each failure, and nobody elsewhere is slowed by it;
 * 3. per name (`perName`, guessing from many addresses): once `free` distinct addresses failed
 *    on a name, sign-ins as it from addresses that did not sign in as it before back off
 *    name-wide (each failure from such an address restarts the wait; each new failing address
 *    doubles it). Addresses that signed in as the name before are never slowed by this, and
 *    the caller (sessions.ts) exempts the last enabled admin, so the server stays administrable.
 *
 * State: a FailureWindow (addresses), two Backoffs (pairs, names) and the KnownAddresses. A
 * failure counts against all of them; a success clears its pair and makes its address known
 * for the name. A refused attempt is refused before the password is checked and counts
 * nowhere, so waiting `retryAfterSecs` always lets the next attempt through.
 */
import type { Clock } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import { Backoff, type BackoffLimit } from './backoff.ts';
import { FailureWindow, type WindowLimit } from './failure-window.ts';
import { KnownAddresses } from './known-addresses.ts';

export interface LoginLimitOptions {
  /** Default: 20 failures in 5 minutes block the address (several people may share one). */
  perIp?: WindowLimit;
  /** Default: 4 free failures, then 30 s doubling up to 15 min; forgotten after an hour without one. */
  perNameAndIp?: BackoffLimit;
  /** Default: 10 free failing addresses, then 5 s doubling up to 5 min; forgotten after 15 minutes without one. */
  perName?: BackoffLimit;
  /** How long an address that signed in as a name stays exempt from the name-wide back-off. Default 30 days. */
  knownAddressMs?: number;
}

/** Which limit refused a sign-in (`details.reason` of `auth.rate_limited`). */
export type RateLimitReason = 'address' | 'name_and_address' | 'name';

const MINUTE = 60_000;
export const DEFAULT_LOGIN_LIMITS: Required<LoginLimitOptions> = {
  perIp: { max: 20, windowMs: 5 * MINUTE },
  perNameAndIp: { free: 4, baseMs: 30_000, maxMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  perName: { free: 10, baseMs: 5_000, maxMs: 5 * MINUTE, forgetMs: 15 * MINUTE },
  knownAddressMs: 30 * 24 * 60 * MINUTE,
};

const nameKey = (name: unknown): string => String(name).toLowerCase();
const pairKey = (name: unknown, ip: string): string => `${nameKey(name)}\n${ip}`;

function rateLimited(reason: RateLimitReason, retryAfterSecs: number, why: string): ActError {
  return new ActError('auth.rate_limited', `${why}: try again in ${retryAfterSecs} s`, { retryAfterSecs, reason });
}

export class LoginLimits {
  private readonly ips: FailureWindow;
  private readonly pairs: Backoff;
  private readonly names: Backoff;
  private readonly known: KnownAddresses;

  constructor(clock: Clock, options: LoginLimitOptions = {}) {
    const d = DEFAULT_LOGIN_LIMITS;
    this.ips = new FailureWindow(options.perIp ?? d.perIp, clock);
    this.pairs = new Backoff(options.perNameAndIp ?? d.perNameAndIp, clock);
    this.names = new Backoff(options.perName ?? d.perName, clock);
    this.known = new KnownAddresses(clock, options.knownAddressMs ?? d.knownAddressMs);
  }

  /** Throws `auth.rate_limited` (details `{ retryAfterSecs, reason }`) while the address, or the name from this address, must wait. */
  check(name: unknown, ip: string): void {
    const address = this.ips.retryAfterSecs(ip);
    if (address > 0) throw rateLimited('address', address, 'too many failed sign-ins from your address');
    const pair = this.pairs.retryAfterSecs(pairKey(name, ip));
    if (pair > 0) throw rateLimited('name_and_address', pair, `too many failed sign-ins as '${String(name)}' from your address (each further one doubles the wait)`);
  }

  /**
   * The name-wide refusal for a sign-in as `name` from `ip`, or null when it may go ahead. The
   * caller decides whether it applies (never to the last enabled admin).
   */
  nameWideRefusal(name: unknown, ip: string): ActError | null {
    if (this.known.has(pairKey(name, ip))) return null;
    const wait = this.names.retryAfterSecs(nameKey(name));
    if (wait === 0) return null;
    return rateLimited('name', wait, `sign-ins as '${String(name)}' are slowed down after failed sign-ins from many addresses (not at an address that signed in as it before)`);
  }

  failed(name: unknown, ip: string): void {
    const pair = pairKey(name, ip);
    const newAddress = this.pairs.failures(pair) === 0;
    this.ips.fail(ip);
    this.pairs.fail(pair);
    if (!this.known.has(pair)) this.names.fail(nameKey(name), newAddress);
  }

  succeeded(name: string, ip: string): void {
    const pair = pairKey(name, ip);
    this.pairs.clear(pair);
    this.known.add(pair);
  }
}
