/**
 * Browser sessions: login checks the password and creates a session, logout deletes it,
 * `fromSession` resolves the caller of a cookie.
 *
 * State: session rows in the store, keyed by the SHA-256 of their secret. A session is `live`
 * from login until `expires`, which slides: a use at least TOUCH_INTERVAL_MS after the last one
 * moves `last_seen` to now and `expires` to now + ttl, never past create_time + maxAge. It ends
 * `expired` (deleted when next presented, or at the user's next login) or `deleted` (logout,
 * password change, user disabled). The login limits live in LoginLimits; the name-wide one never
 * applies to the last enabled admin. A session resolved a moment ago is resolved from the
 * credential cache (credential-cache.ts) without reading its rows; its expiry is still checked
 * on every use.
 */
import type { Clock } from '../engine/clock.ts';
import { ActError } from '../engine/errors.ts';
import type { ServerStore, SessionRow } from '../store/server-rows.ts';
import type { AccessEvents } from './access-events.ts';
import type { LoginLimits } from './login-limits.ts';
import type { PasswordHasher } from './passwords.ts';
import { passwordFits } from './rules.ts';
import { newSecret, plausibleSecret, secretHash } from './secrets.ts';
import type { CredentialCache } from './credential-cache.ts';
import type { Caller, Session } from './types.ts';
import { updateIfPresent } from './update-if-present.ts';
import { callerOf, type UserDirectory } from './users.ts';

/** Uses of a session or token closer together than this write nothing. */
export const TOUCH_INTERVAL_MS = 60_000;

export interface SessionLifetime {
  /** Idle lifetime: a session unused for this long expires. */
  ttlMs: number;
  /** Absolute lifetime from login, however often it is used. */
  maxAgeMs: number;
}

export interface SessionDeps {
  store: Pick<ServerStore, 'sessions' | 'serverQueries'>;
  users: UserDirectory;
  hasher: PasswordHasher;
  limits: LoginLimits;
  clock: Clock;
  events: AccessEvents;
  lifetime: SessionLifetime;
  /** Sessions resolved a moment ago. */
  cache: CredentialCache<SessionRow>;
}

export class SessionKeeper {
  constructor(private readonly deps: SessionDeps) {}

  async login(name: string, password: string, ip: string): Promise<Session> {
    const { limits, hasher, users } = this.deps;
    limits.check(name, ip);
    const user = typeof name === 'string' && name !== '' ? await users.findByName(name) : undefined;
    const slowed = limits.nameWideRefusal(name, ip);
    if (slowed && !(user && (await users.isLastEnabledAdmin(user)))) throw slowed;
    const ok = passwordFits(password) && (user ? await hasher.verify(user.password_hash, password) : await hasher.verifyNothing(password));
    if (!ok || !user) {
      limits.failed(name, ip);
      throw new ActError('auth.invalid', 'wrong user name or password');
    }
    if (user.disabled) throw new ActError('auth.invalid', 'this account is disabled');
    limits.succeeded(name, ip);
    const token = newSecret();
    const now = this.deps.clock.now();
    const row: SessionRow = { id: secretHash(token), user_id: user.id, expires: this.expiry(now, now), create_time: now, last_seen: now };
    await this.dropExpired(user.id, now);
    await this.deps.store.sessions.create(row);
    return { token, caller: callerOf(user, 'session'), expires: row.expires };
  }

  /** Deletes the session and reports it ended; an unknown one changes nothing. */
  async logout(sessionToken: string): Promise<void> {
    if (!plausibleSecret(sessionToken)) return;
    const { sessions } = this.deps.store;
    const row = await sessions.find(secretHash(sessionToken));
    if (!row) return;
    this.deps.cache.drop(row.id);
    if (await sessions.delete(row.id)) this.deps.events.emit({ userId: row.user_id, reason: 'session_ended' });
  }

  async fromSession(sessionToken: string): Promise<Caller | null> {
    if (!plausibleSecret(sessionToken)) return null;
    const { sessions } = this.deps.store;
    const { cache } = this.deps;
    const id = secretHash(sessionToken);
    const cached = cache.get(id);
    const row = cached?.row ?? (await sessions.find(id));
    if (!row) return null;
    const now = this.deps.clock.now();
    if (row.expires <= now) {
      cache.drop(id);
      await sessions.delete(row.id);
      return null;
    }
    const user = cached?.user ?? (await this.deps.users.findEnabled(row.user_id));
    if (!user) return null;
    const touched = now - row.last_seen < TOUCH_INTERVAL_MS ? null : { ...row, last_seen: now, expires: this.expiry(row.create_time, now) };
    // false: logged out meanwhile
    if (!(await cache.keep(id, { row, user, cached: cached !== undefined }, touched, (t) => updateIfPresent(sessions, t)))) return null;
    return callerOf(user, 'session');
  }

  private expiry(createTime: number, now: number): number {
    return Math.min(now + this.deps.lifetime.ttlMs, createTime + this.deps.lifetime.maxAgeMs);
  }

  private async dropExpired(userId: string, now: number): Promise<void> {
    await this.deps.store.serverQueries.deleteExpiredSessions(now, userId);
  }
}
