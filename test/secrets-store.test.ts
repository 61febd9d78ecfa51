/**
 * The secrets store (server/secrets) on every backend: values sealed with AES-256-GCM (never the
 * clear value in the row), opened again by a new book with the same key; refused at open without a
 * key (`secrets.no_key`) or with another key (`secrets.bad_key`); a value moved under another
 * name does not open; key formats; name and size rules; two servers on one PostgreSQL database
 * see each other's changes; rotation to a new key at start (ACTS_SECRETS_OLD_KEYS).
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import { openSecrets, parseSecretsKey, SecretBook, type SecretsKey } from '../server/secrets/index.ts';
import { openStore } from '../server/store/open-store.ts';
import { BACKENDS, createTestDatabase, useTestStore } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';

const clock = { now: () => 1_700_000_000_000 };
const newKey = (): SecretsKey => parseSecretsKey(crypto.randomBytes(32).toString('base64'))!;

async function codeOf(work: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (err) {
    if (ActError.is(err)) return err.code;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('the key', () => {
  it('reads 64 hex digits and base64 (standard and url-safe), gives an id, refuses anything else', async () => {
    const bytes = crypto.randomBytes(32);
    const ids = [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url'), ` ${bytes.toString('base64')}\n`].map((t) => parseSecretsKey(t)!.id);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(parseSecretsKey(undefined)).toBeUndefined();
    expect(parseSecretsKey('  ')).toBeUndefined();
    for (const bad of ['short', crypto.randomBytes(16).toString('base64'), crypto.randomBytes(33).toString('hex'), 'é'.repeat(44)]) {
      expect(await codeOf(() => parseSecretsKey(bad))).toBe('secrets.bad_key');
    }
  });
});

describe.each(BACKENDS)('on %s', (backend) => {
  const store = useTestStore(backend);

  it('seals each value with its own nonce, opens it again with the same key', async () => {
    const key = newKey();
    const book = await SecretBook.open(store(), key, clock);
    expect(await book.set('API_TOKEN', 'tok-clear-1', 'ann')).toMatchObject({ name: 'API_TOKEN', created: true, create_by: 'ann' });
    expect(await book.set('OTHER', 'tok-clear-1', 'bob')).toMatchObject({ created: true });
    const rows = (await store().secrets.query()).rows;
    expect(JSON.stringify(rows)).not.toContain('tok-clear-1');
    expect(rows[0].iv).not.toBe(rows[1].iv);
    expect(rows[0].value).not.toBe(rows[1].value);
    expect(rows.every((r) => r.key_id === key.id)).toBe(true);

    const again = await SecretBook.open(store(), key, clock);
    expect(again.get('API_TOKEN')).toBe('tok-clear-1');
    expect(await again.set('API_TOKEN', 'tok-clear-2', 'bob')).toMatchObject({ created: false, create_by: 'ann', update_by: 'bob' });
    expect(again.get('API_TOKEN')).toBe('tok-clear-2');
    expect(await again.list()).toEqual([
      { name: 'API_TOKEN', create_time: clock.now(), create_by: 'ann', update_time: clock.now(), update_by: 'bob' },
      { name: 'OTHER', create_time: clock.now(), create_by: 'bob', update_time: clock.now(), update_by: 'bob' },
    ]);
    await again.delete('OTHER');
    expect(again.get('OTHER')).toBeUndefined();
    expect(await codeOf(again.delete('OTHER'))).toBe('secret.not_found');
  });

  it('refuses to open stored secrets without a key, or with another key; a moved value does not open', async () => {
    const key = newKey();
    const book = await SecretBook.open(store(), key, clock);
    await book.set('A_SECRET', 'value-a', 'ann');
    expect(await codeOf(SecretBook.open(store(), undefined, clock))).toBe('secrets.no_key');
    expect(await codeOf(SecretBook.open(store(), newKey(), clock))).toBe('secrets.bad_key');
    const row = (await store().secrets.find('A_SECRET'))!;
    await store().secrets.delete('A_SECRET');
    await store().secrets.create({ ...row, id: 'B_SECRET' });
    expect(await codeOf(SecretBook.open(store(), key, clock))).toBe('secrets.bad_key');
  });

  it('without a key: opens empty, refuses to store; names and sizes are checked', async () => {
    const keyless = await SecretBook.open(store(), undefined, clock);
    expect(keyless.enabled).toBe(false);
    expect(await codeOf(keyless.set('A', 'x', 'ann'))).toBe('secrets.no_key');
    const book = await SecretBook.open(store(), newKey(), clock);
    for (const name of ['lower', '1ABC', 'A-B', '', 'A'.repeat(65)]) expect(await codeOf(book.set(name, 'x', 'ann'))).toBe('input.invalid');
    expect(await codeOf(book.set('EMPTY', '', 'ann'))).toBe('input.invalid');
    expect(await codeOf(book.set('BIG', 'x'.repeat(8193), 'ann'))).toBe('input.too_large');
    expect(await book.set('A'.repeat(64), 'é'.repeat(4096), 'ann')).toMatchObject({ created: true });
    expect((await store().secrets.query()).rows).toHaveLength(1);
  });
});

describe('two servers on one PostgreSQL database', () => {
  it("a change on one is read by the other at once (NOTIFY acts_secrets)", async () => {
    const db = await createTestDatabase('postgresql');
    const [one, two] = [await openStore(db.url), await openStore(db.url)];
    try {
      const key = newKey();
      const a = await SecretBook.open(one, key, clock);
      const b = await SecretBook.open(two, key, clock);
      await a.set('SHARED', 'first', 'ann');
      await eventually(() => b.get('SHARED') === 'first', 'the other book read the new secret', 250);
      await a.set('SHARED', 'second', 'ann');
      await eventually(() => b.get('SHARED') === 'second', 'the other book read the new value', 250);
      await b.delete('SHARED');
      await eventually(() => a.get('SHARED') === undefined, 'the first book saw the delete', 250);
    } finally {
      await one.close();
      await two.close();
      await db.drop();
    }
  });
});

describe('rotation', () => {
  const store = useTestStore('sqlite');

  it('a start with the new key and the old one in ACTS_SECRETS_OLD_KEYS seals every row again with the new key', async () => {
    const [oldKey, newKey2] = [newKey(), newKey()];
    const before = await SecretBook.open(store(), oldKey, clock);
    await before.set('ONE', 'value-1', 'ann');
    await before.set('TWO', 'value-2', 'ann');
    expect(await codeOf(SecretBook.open(store(), newKey2, clock))).toBe('secrets.bad_key');
    const env = { ACTS_SECRETS_KEY: newKey2.bytes.toString('hex'), ACTS_SECRETS_OLD_KEYS: `${newKey().bytes.toString('base64')}, ${oldKey.bytes.toString('base64')}` };
    const rotated = await openSecrets(store(), env, clock);
    expect([rotated.get('ONE'), rotated.get('TWO')]).toEqual(['value-1', 'value-2']);
    expect((await store().secrets.query()).rows.map((r) => r.key_id)).toEqual([newKey2.id, newKey2.id]);
    // the old key is no longer needed, and no longer opens them
    expect((await SecretBook.open(store(), newKey2, clock)).get('TWO')).toBe('value-2');
    expect(await codeOf(SecretBook.open(store(), oldKey, clock))).toBe('secrets.bad_key');
    expect(await codeOf(() => openSecrets(store(), { ...env, ACTS_SECRETS_OLD_KEYS: 'bad' }, clock))).toBe('secrets.bad_key');
  });
});
