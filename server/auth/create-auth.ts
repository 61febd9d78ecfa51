/**
 * `createAuth(store, options)`: the `Auth` of server/types.ts on the server's collections.
 *
 * State: what its parts hold (see users.ts, sessions.ts, tokens.ts, login-limits.ts,
 * access-events.ts); this module only wires them together.
 */
import { systemClock, randomId, type Clock, type IdSource } from '../engine/clock.ts';
import { shareAccessChanges, type AccessBus } from './access-bus.ts';
import { AccessEvents } from './access-events.ts';
import { CredentialCache } from './credential-cache.ts';
import { GroupDirectory } from './groups.ts';
import type { ApiTokenRow, ServerStore, SessionRow } from '../store/server-rows.ts';
import { LoginLimits, type LoginLimitOptions } from './login-limits.ts';
import { PasswordHasher, type PasswordHashing } from './passwords.ts';
import { SessionKeeper } from './sessions.ts';
import { TokenKeeper } from './tokens.ts';
import type { Auth } from './types.ts';
import { UserDirectory } from './users.ts';

const DAY_MS = 24 * 3600_000;

export interface AuthOptions {
  clock?: Clock;
  ids?: IdSource;
  /** A session unused for this long expires. Default 7 days. */
  sessionTtlMs?: number;
  /** A session expires this long after login however much it is used. Default 30 days. */
  sessionMaxAgeMs?: number;
  /** argon2id costs (defaults: the library's). */
  passwordHashing?: PasswordHashing;
  /** Failed-login limits (defaults in login-limits.ts: per address, per name and address, per name). */
  loginLimits?: LoginLimitOptions;
  /** How long a resolved session or token is used without reading it again, ms (default 1 s; credential-cache.ts). */
  credentialFreshMs?: number;
}

/**
 * The collections and named queries server/auth uses; a shared store's wake-ups (PostgreSQL),
 * when it has them, carry access changes to the other servers (access-bus.ts).
 */
export type AuthStore = Pick<ServerStore, 'users' | 'sessions' | 'apiTokens' | 'groups' | 'serverQueries'> & Partial<AccessBus>;

/**
 * The server's `Auth` on `store` (an `OpenedStore` from openStore(url), or any ServerStore).
 * Failed-login counts live in the returned object: create one per server process.
 */
export function createAuth(store: AuthStore, options: AuthOptions = {}): Auth {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomId;
  const hasher = new PasswordHasher(options.passwordHashing);
  const events = new AccessEvents();
  const sessionCache = new CredentialCache<SessionRow>(options.credentialFreshMs);
  const tokenCache = new CredentialCache<ApiTokenRow>(options.credentialFreshMs);
  // first, so every other listener (the socket layer looking again) reads past the caches
  events.on((change) => {
    sessionCache.dropUser(change.userId);
    tokenCache.dropUser(change.userId);
  });
  if (store.notify && store.listen) shareAccessChanges({ notify: store.notify.bind(store), listen: store.listen.bind(store) }, events);
  const users = new UserDirectory({ store, hasher, clock, ids, events });
  const sessions = new SessionKeeper({
    store,
    users,
    hasher,
    clock,
    events,
    limits: new LoginLimits(clock, options.loginLimits),
    lifetime: { ttlMs: options.sessionTtlMs ?? 7 * DAY_MS, maxAgeMs: options.sessionMaxAgeMs ?? 30 * DAY_MS },
    cache: sessionCache,
  });
  const tokens = new TokenKeeper({ store, users, clock, ids, events, cache: tokenCache });
  const groups = new GroupDirectory({ store, clock, events });
  return {
    login: (name, password, ip) => sessions.login(name, password, ip),
    logout: (sessionToken) => sessions.logout(sessionToken),
    fromSession: (sessionToken) => sessions.fromSession(sessionToken),
    fromToken: (apiToken) => tokens.fromToken(apiToken),
    setupNeeded: async () => !(await users.adminExists()),
    setup: (name, password) => users.createFirstAdmin(name, password),
    onAccessChange: (listener) => events.on(listener),
    // Only the contract's methods: the directory's row lookups (with password hashes) stay inside.
    users: {
      list: () => users.list(),
      get: (id) => users.get(id),
      named: (name) => users.named(name),
      create: (name, password, roles) => users.create(name, password, roles),
      setRoles: (id, roles) => users.setRoles(id, roles),
      setPassword: (id, password) => users.setPassword(id, password),
      setDisabled: (id, disabled) => users.setDisabled(id, disabled),
      setGroups: (id, names) => groups.setUserGroups(id, names),
      setEmail: (id, email) => users.setEmail(id, email),
    },
    groups: {
      list: () => groups.list(),
      create: (name, description) => groups.create(name, description),
      describe: (name, description) => groups.describe(name, description),
      remove: (name) => groups.remove(name),
    },
    tokens: {
      create: (userId, name) => tokens.create(userId, name),
      list: (userId) => tokens.list(userId),
      revoke: (id) => tokens.revoke(id),
    },
  };
}
