/**
 * AES-256-GCM sealing of one secret value: a random 12-byte nonce per value, the secret's name as
 * associated data (a value copied under another name does not open), the 16-byte tag after the
 * ciphertext. Opening with the wrong key, or a changed row, is `secrets.bad_key`, never garbage.
 */
import crypto from 'node:crypto';
import { ActError } from '../engine/errors.ts';
import type { SecretsKey } from './key.ts';
import { SECRETS_KEY_ENV } from './key.ts';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value as the store keeps it (base64 texts). */
export interface Sealed {
  value: string;
  iv: string;
  key_id: string;
}

export function seal(key: SecretsKey, name: string, clear: string): Sealed {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv(ALGORITHM, key.bytes, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { value: body.toString('base64'), iv: iv.toString('base64'), key_id: key.id };
}

function refused(name: string, why: string): ActError {
  return new ActError('secrets.bad_key', `secret '${name}' cannot be decrypted: ${why}; start the server with the ${SECRETS_KEY_ENV} the secrets were stored with`, { name });
}

export function open(key: SecretsKey, name: string, sealed: Sealed): string {
  if (sealed.key_id !== key.id) throw refused(name, `it was stored with another key (key id ${sealed.key_id}, this key's id is ${key.id})`);
  const body = Buffer.from(sealed.value, 'base64');
  if (body.length < TAG_BYTES) throw refused(name, 'its stored value is damaged');
  const decipher = crypto.createDecipheriv(ALGORITHM, key.bytes, Buffer.from(sealed.iv, 'base64'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw refused(name, 'the key does not open it (a wrong key, or a changed row)');
  }
}
