/**
 * API tokens: `acts_…` secrets a user creates for scripts (`Authorization: Bearer …`); the store
 * keeps only their SHA-256.
 *
 * State: token rows in the store. A token is `active` from creation until revoked, which deletes
 * its row (the audit log keeps the record): a deleted row cannot be brought back by a racing
 * `last_used` write, where a `revoked` flag could be overwritten. It resolves only while its user
 * exists and is enabled. `last_used` is written at most once per TOUCH_INTERVAL_MS. A token
 * resolved a moment ago is resolved from the credential cache (credential-cache.ts).
 */
import type { Clock, IdSource } from '../engine/clock.ts';
import type { ApiTokenRow, ServerStore } from '../store/server-rows.ts';
import type { AccessEvents } from './access-events.ts';
import type { CredentialCache } from './credential-cache.ts';
import { checkTokenName } from './rules.ts';
import { API_TOKEN_PREFIX, newSecret, plausibleSecret, secretHash } from './secrets.ts';
import { TOUCH_INTERVAL_MS } from './sessions.ts';
import type { Auth, Caller, TokenInfo } from './types.ts';
import { updateIfPresent } from './update-if-present.ts';
import { callerOf, type UserDirectory } from './users.ts';

export interface TokenDeps {
  store: Pick<ServerStore, 'apiTokens' | 'serverQueries'>;
  users: UserDirectory;
  clock: Clock;
  ids: IdSource;
  events: AccessEvents;
  /** Tokens resolved a moment ago, by the hash of their secret. */
  cache: CredentialCache<ApiTokenRow>;
}

/** A token as the API shows it (never its secret or hash). */
export function tokenInfo(row: ApiTokenRow): TokenInfo {
  return { id: row.id, user_id: row.user_id, name: row.name, create_time: row.create_time, last_used: row.last_used };
}

type TokenAdmin = Auth['tokens'];

export class TokenKeeper implements TokenAdmin {
  constructor(private readonly deps: TokenDeps) {}

  async create(userId: string, name: string): Promise<{ info: TokenInfo; token: string }> {
    checkTokenName(name);
    await this.deps.users.get(userId); // user.not_found
    const token = newSecret(API_TOKEN_PREFIX);
    const row: ApiTokenRow = {
      id: this.deps.ids(16),
      user_id: userId,
      name,
      token_hash: secretHash(token),
      create_time: this.deps.clock.now(),
      last_used: null,
    };
    await this.deps.store.apiTokens.create(row);
    return { info: tokenInfo(row), token };
  }

  /** The user's tokens, oldest first. */
  async list(userId: string): Promise<TokenInfo[]> {
    await this.deps.users.get(userId); // user.not_found
    return (await this.deps.store.serverQueries.tokensOfUser(userId)).map(tokenInfo);
  }

  /** Idempotent: an unknown or already revoked id changes nothing. A revocation is reported as an access change. */
  async revoke(id: string): Promise<void> {
    if (typeof id !== 'string' || id === '') return;
    const { apiTokens } = this.deps.store;
    const row = await apiTokens.find(id);
    if (!row) return;
    this.deps.cache.drop(row.token_hash);
    if (await apiTokens.delete(id)) this.deps.events.emit({ userId: row.user_id, reason: 'token_revoked' });
  }

  async fromToken(apiToken: string): Promise<Caller | null> {
    if (!plausibleSecret(apiToken, API_TOKEN_PREFIX)) return null;
    const { apiTokens, serverQueries } = this.deps.store;
    const { cache } = this.deps;
    const hash = secretHash(apiToken);
    const cached = cache.get(hash);
    const row = cached?.row ?? (await serverQueries.tokenWithHash(hash));
    if (!row) return null;
    const user = cached?.user ?? (await this.deps.users.findEnabled(row.user_id));
    if (!user) return null;
    const now = this.deps.clock.now();
    const touched = row.last_used !== null && now - row.last_used < TOUCH_INTERVAL_MS ? null : { ...row, last_used: now };
    // false: revoked meanwhile
    if (!(await cache.keep(hash, { row, user, cached: cached !== undefined }, touched, (t) => updateIfPresent(apiTokens, t)))) return null;
    return callerOf(user, 'token');
  }
}
