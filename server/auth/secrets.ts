/** Random secrets for sessions and API tokens, and the only form in which the store keeps them. */
import crypto from 'node:crypto';

/** The prefix of every API token, so a leaked one is recognisable (and scannable) as ours. */
export const API_TOKEN_PREFIX = 'acts_';

/** Secrets longer than this are not ours: refused without a lookup. */
export const MAX_SECRET_LENGTH = 256;

/** 32 random bytes, base64url, after `prefix`. */
export function newSecret(prefix = ''): string {
  return prefix + crypto.randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a secret: what the store keeps instead of it. */
export function secretHash(secret: string): string {
  // the one-shot hash: no Hash object per call (every API call hashes its session or token)
  return crypto.hash('sha256', secret, 'hex');
}

/** Whether a presented value can be one of our secrets at all (cheap check before any lookup). */
export function plausibleSecret(value: unknown, prefix = ''): value is string {
  return typeof value === 'string' && value.length > prefix.length && value.length <= MAX_SECRET_LENGTH && value.startsWith(prefix);
}
