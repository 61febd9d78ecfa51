/** The project's secrets: `SecretBook.open(store, parseSecretsKey(env.ACTS_SECRETS_KEY), clock)`. */
export { SecretBook, checkSecret } from './secret-book.ts';
export { parseSecretsKey, parseSecretsKeys, SECRETS_KEY_ENV, OLD_SECRETS_KEYS_ENV, type SecretsKey } from './key.ts';
export { openSecrets } from './open-secrets.ts';
export type { SecretInfo, SecretStore } from './types.ts';
