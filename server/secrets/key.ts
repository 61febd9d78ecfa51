/**
 * The key secrets are encrypted with: `ACTS_SECRETS_KEY`, 32 random bytes written as 64 hex
 * digits or as base64 (padded or not, standard or url-safe). Generate one with
 * `openssl rand -base64 32` (or `node -e "console.log(crypto.randomBytes(32).toString('base64'))"`).
 * Its id (the first 16 hex digits of its SHA-256) is stored beside each value, so a value sealed
 * with another key is told apart from a damaged one, and a later rotation knows what to re-seal.
 */
import crypto from 'node:crypto';
import { ActError } from '../engine/errors.ts';

/** The environment variable that holds the key. */
export const SECRETS_KEY_ENV = 'ACTS_SECRETS_KEY';

/** The environment variable that holds the previous keys, comma-separated (rotation at start). */
export const OLD_SECRETS_KEYS_ENV = 'ACTS_SECRETS_OLD_KEYS';

export interface SecretsKey {
  /** The 32 bytes of the AES-256 key. */
  bytes: Buffer;
  /** First 16 hex digits of the SHA-256 of the key: stored with each value, never the key. */
  id: string;
}

function decode(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

/**
 * The key of `text` (the variable's value); undefined when it is unset or blank. A value that is
 * not 32 bytes in hex or base64 is refused with `secrets.bad_key`, never shortened or padded.
 */
export function parseSecretsKey(text: string | undefined): SecretsKey | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  const bytes = decode(trimmed);
  if (!bytes) {
    throw new ActError(
      'secrets.bad_key',
      `${SECRETS_KEY_ENV} must be 32 random bytes as 64 hex digits or as base64 (generate one with: openssl rand -base64 32)`,
    );
  }
  return { bytes, id: crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

/** The keys of a comma-separated list (ACTS_SECRETS_OLD_KEYS); each must be well-formed. */
export function parseSecretsKeys(text: string | undefined): SecretsKey[] {
  return (text ?? '')
    .split(',')
    .map((part) => parseSecretsKey(part))
    .filter((key): key is SecretsKey => key !== undefined);
}
