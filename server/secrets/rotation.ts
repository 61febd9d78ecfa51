/**
 * Key rotation at start: rows sealed with one of the previous keys (`ACTS_SECRETS_OLD_KEYS`) are
 * opened with it and sealed again with the current key, one row at a time (a crash midway leaves
 * each row sealed with one of the two, and the next start goes on). Rows of the current key, or
 * of a key not given, are left as they are (the latter then refuse the start: secrets.bad_key).
 */
import type { SecretRow } from '../store/server-rows.ts';
import { open, seal } from './cipher.ts';
import type { SecretsKey } from './key.ts';
import type { SecretStore } from './types.ts';

/** Re-seals the rows of the old keys with `key`; returns how many were re-sealed. */
export async function rotateSecrets(store: SecretStore, key: SecretsKey, oldKeys: readonly SecretsKey[]): Promise<number> {
  if (oldKeys.length === 0) return 0;
  const rows: SecretRow[] = (await store.secrets.query({ order_by: ['id'] })).rows;
  let count = 0;
  for (const row of rows) {
    const old = row.key_id === key.id ? undefined : oldKeys.find((k) => k.id === row.key_id);
    if (!old) continue;
    await store.secrets.update({ ...row, ...seal(key, row.id, open(old, row.id, row)) });
    count++;
  }
  return count;
}
