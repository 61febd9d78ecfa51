/**
 * What the engine reads of the project's secrets (server/secrets implements it): a value by name,
 * held in memory only. Secrets reach an act's params through `{{ secrets.NAME }}`
 * (expr/secret-templates.ts) and nowhere else.
 */
export interface SecretReader {
  /** The value of secret `name`; undefined when there is none. */
  get(name: string): string | undefined;
}

/** The reader of an engine without secrets. */
export const NO_SECRETS: SecretReader = { get: () => undefined };
