/**
 * The secrets of a server or a CLI command that opens a store: the book opened with the key of
 * `ACTS_SECRETS_KEY` — refusing (`secrets.no_key`, `secrets.bad_key`) as SecretBook.open does.
 */
import { systemClock, type Clock } from '../engine/clock.ts';
import { parseSecretsKey, SECRETS_KEY_ENV } from './key.ts';
import { SecretBook, type SecretStore } from './secret-book.ts';

export function openSecrets(store: SecretStore, env: NodeJS.ProcessEnv = process.env, clock: Clock = systemClock): Promise<SecretBook> {
  return SecretBook.open(store, parseSecretsKey(env[SECRETS_KEY_ENV]), clock);
}
