/**
 * The secrets of a server or a CLI command that opens a store: the book opened with the key of
 * `ACTS_SECRETS_KEY` (rows of the keys in `ACTS_SECRETS_OLD_KEYS` sealed again with it) — refusing (`secrets.no_key`, `secrets.bad_key`) as SecretBook.open does.
 */
import { systemClock, type Clock } from '../engine/clock.ts';
import { OLD_SECRETS_KEYS_ENV, parseSecretsKey, parseSecretsKeys, SECRETS_KEY_ENV } from './key.ts';
import { SecretBook } from './secret-book.ts';
import type { SecretStore } from './types.ts';

export function openSecrets(store: SecretStore, env: NodeJS.ProcessEnv = process.env, clock: Clock = systemClock): Promise<SecretBook> {
  return SecretBook.open(store, parseSecretsKey(env[SECRETS_KEY_ENV]), clock, parseSecretsKeys(env[OLD_SECRETS_KEYS_ENV]));
}
