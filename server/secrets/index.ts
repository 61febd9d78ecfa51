/** The project's secrets: `SecretBook.open(store, parseSecretsKey(env.ACTS_SECRETS_KEY), clock)`. */
export { SecretBook, checkSecret, type SecretStore } from './secret-book.ts';
export { parseSecretsKey, SECRETS_KEY_ENV, type SecretsKey } from './key.ts';
export { openSecrets } from './open-secrets.ts';
export type { SecretInfo } from './types.ts';
