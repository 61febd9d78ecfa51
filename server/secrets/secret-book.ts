/**
 * `SecretBook`: the project's secrets, sealed in the store's `secrets` table with the server's
 * key (key.ts, cipher.ts) and held open in memory for the engine (`get`, a `SecretReader`).
 *
 * State: closed → open (`SecretBook.open`: the rows of previous keys sealed again with the
 * current one (rotation.ts), every row decrypted into `values`, or the start
 * refused: rows but no key is `secrets.no_key`, a key that does not open them `secrets.bad_key`)
 * → each `set`/`delete` writes the row first, then changes `values` and tells the other servers of
 * a shared store (secret-bus.ts), whose books `reload`: they re-read every row. A reload that
 * fails (another server's key) keeps the values read before. Without a key the book is open but
 * empty, and `set` is refused with `secrets.no_key`.
 */
import { ActError } from '../engine/errors.ts';
import type { Clock } from '../engine/clock.ts';
import type { SecretReader } from '../engine/secrets.ts';
import type { SecretRow } from '../store/server-rows.ts';
import { MAX_SECRET_BYTES, SECRET_NAME } from '../../vocab/secrets.ts';
import { open, seal } from './cipher.ts';
import { SECRETS_KEY_ENV, type SecretsKey } from './key.ts';
import { shareSecretChanges } from './secret-bus.ts';
import { rotateSecrets } from './rotation.ts';
import type { SecretInfo, SecretStore } from './types.ts';


function infoOf(row: SecretRow): SecretInfo {
  return { name: row.id, create_time: row.create_time, create_by: row.create_by, update_time: row.update_time, update_by: row.update_by };
}

/** Refuses a name or value the rules do not allow (vocab/secrets.ts). */
export function checkSecret(name: string, value?: string): void {
  if (!SECRET_NAME.test(name)) {
    throw new ActError('input.invalid', `'${name.slice(0, 80)}' is not a secret name: use an upper-case letter, then up to 63 upper-case letters, digits or '_' (like API_TOKEN)`);
  }
  if (value === undefined) return;
  if (value.length === 0) throw new ActError('input.invalid', `the value of secret '${name}' is empty: give the value to keep`);
  if (Buffer.byteLength(value, 'utf8') > MAX_SECRET_BYTES) {
    throw new ActError('input.too_large', `the value of secret '${name}' is larger than ${MAX_SECRET_BYTES} bytes`);
  }
}

export class SecretBook implements SecretReader {
  private values = new Map<string, string>();
  private announce: (name: string) => void = () => undefined;

  private constructor(
    private readonly store: SecretStore,
    private readonly key: SecretsKey | undefined,
    private readonly clock: Clock,
  ) {}

  /**
   * Opens the book: the rows of `oldKeys` sealed again with `key` (rotation.ts), then every stored
   * secret decrypted, or the start refused (see the header).
   */
  static async open(store: SecretStore, key: SecretsKey | undefined, clock: Clock, oldKeys: readonly SecretsKey[] = []): Promise<SecretBook> {
    const book = new SecretBook(store, key, clock);
    if (key) await rotateSecrets(store, key, oldKeys);
    await book.reload();
    book.announce = await shareSecretChanges(store, () => book.reload());
    return book;
  }

  /** Whether secrets can be stored (the server has a key). */
  get enabled(): boolean {
    return this.key !== undefined;
  }

  /** Re-reads every row (the values of another instance's changes). */
  async reload(): Promise<void> {
    const rows = (await this.store.secrets.query({ order_by: ['id'] })).rows;
    if (!this.key) {
      if (rows.length > 0) {
        throw new ActError(
          'secrets.no_key',
          `${rows.length} secret(s) are stored in this database but ${SECRETS_KEY_ENV} is not set: start the server with the key they were stored with`,
        );
      }
      return;
    }
    const key = this.key;
    // all rows open, or none changes: a failing reload keeps the values read before
    this.values = new Map(rows.map((row) => [row.id, open(key, row.id, row)]));
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  /** Every secret's name and history, by name; never a value. */
  async list(): Promise<SecretInfo[]> {
    return (await this.store.secrets.query({ order_by: ['id'] })).rows.map(infoOf);
  }

  /** Creates or replaces secret `name` (sealed with the key); `created` says which. */
  async set(name: string, value: string, by: string): Promise<SecretInfo & { created: boolean }> {
    checkSecret(name, value);
    if (!this.key) throw new ActError('secrets.no_key', `this server has no ${SECRETS_KEY_ENV}: set it (32 random bytes, e.g. openssl rand -base64 32) and restart to store secrets`);
    const prev = await this.store.secrets.find(name);
    const now = this.clock.now();
    const row: SecretRow = {
      id: name,
      ...seal(this.key, name, value),
      create_time: prev?.create_time ?? now,
      create_by: prev?.create_by ?? by,
      update_time: now,
      update_by: by,
    };
    await this.store.secrets.upsert(row);
    this.values.set(name, value);
    this.announce(name);
    return { ...infoOf(row), created: !prev };
  }

  /** Deletes secret `name`; `secret.not_found` when there is none. */
  async delete(name: string): Promise<void> {
    checkSecret(name);
    if (!(await this.store.secrets.delete(name))) throw new ActError('secret.not_found', `there is no secret '${name}'`);
    this.values.delete(name);
    this.announce(name);
  }
}
