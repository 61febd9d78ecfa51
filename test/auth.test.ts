/**
 * server/auth on every backend (memory, SQLite file, PostgreSQL): first admin (setup and
 * ACTS_ADMIN_PASSWORD), login / logout / sessions (sliding expiry), failed-login limits, users and
 * roles (last-admin protection), API tokens, and that no secret or hash is stored or returned.
 */
import crypto from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAuth, ensureAdminFromEnv, type Auth, type AuthOptions } from '../server/auth/index.ts';
import { ManualClock } from '../server/engine/clock.ts';
import type { ErrorCode } from '../server/engine/errors.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const IP = '10.0.0.1';
const PASSWORD = 'correct horse battery';
/** Cheap argon2id costs: the tests check behaviour, not hashing strength. */
const CHEAP = { memoryCost: 256, timeCost: 1 };

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

async function refusal(promise: Promise<unknown>, code: ErrorCode): Promise<{ code: string; message: string; details?: unknown }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string; details?: unknown },
  );
  expect(err, `expected a rejection with ${code}`).toBeDefined();
  expect(err!.code).toBe(code);
  return err!;
}

describe.each(BACKENDS)('auth on %s', (backend) => {
  const store = useTestStore(backend);
  let clock: ManualClock;
  let auth: Auth;
  const make = (options: AuthOptions = {}) => createAuth(store(), { clock, passwordHashing: CHEAP, ...options });
  const rowsOf = async (name: 'users' | 'sessions' | 'apiTokens') => (await store()[name].query()).rows as object[];
  /** Every stored row of the auth tables, as text. */
  const storedText = async () => JSON.stringify([await rowsOf('users'), await rowsOf('sessions'), await rowsOf('apiTokens')]);

  beforeEach(() => {
    clock = new ManualClock();
    auth = make();
  });

  describe('first admin', () => {
    it('is set up once; setup refuses afterwards', async () => {
      expect(await auth.setupNeeded()).toBe(true);
      const admin = await auth.setup('root', PASSWORD);
      expect(admin).toMatchObject({ name: 'root', roles: ['admin'], disabled: false });
      expect(await auth.setupNeeded()).toBe(false);
      await refusal(auth.setup('other', PASSWORD), 'auth.setup_done');
      expect((await auth.users.list()).map((u) => u.name)).toEqual(['root']);
    });

    it('checks the password rules (8 characters, 1024 bytes) and creates nothing on refusal', async () => {
      await refusal(auth.setup('root', 'short'), 'input.invalid');
      await refusal(auth.setup('root', 'x'.repeat(1025)), 'input.invalid');
      await refusal(auth.setup('root', 'é'.repeat(513)), 'input.invalid'); // 513 characters, 1026 bytes
      await refusal(auth.setup('bad name', PASSWORD), 'input.invalid');
      expect(await rowsOf('users')).toEqual([]);
      expect(await auth.setupNeeded()).toBe(true);
      expect((await auth.setup('root', 'é'.repeat(512))).name).toBe('root');
    });

    it('stays open while only non-admin users exist', async () => {
      await auth.users.create('ann', PASSWORD, ['viewer']);
      expect(await auth.setupNeeded()).toBe(true);
      await auth.setup('root', PASSWORD);
      expect(await auth.setupNeeded()).toBe(false);
    });

    it('comes from ACTS_ADMIN_PASSWORD when it is set and no admin exists', async () => {
      expect(await ensureAdminFromEnv(auth, {})).toBeNull();
      expect(await auth.setupNeeded()).toBe(true);
      const admin = await ensureAdminFromEnv(auth, { ACTS_ADMIN_PASSWORD: PASSWORD });
      expect(admin).toMatchObject({ name: 'admin', roles: ['admin'] });
      expect((await auth.login('admin', PASSWORD, IP)).caller.roles).toEqual(['admin']);
      expect(await ensureAdminFromEnv(auth, { ACTS_ADMIN_PASSWORD: 'another password' })).toBeNull();
      await refusal(auth.login('admin', 'another password', IP), 'auth.invalid');
    });

    it('refuses a weak ACTS_ADMIN_PASSWORD, naming the variable', async () => {
      const err = await refusal(ensureAdminFromEnv(auth, { ACTS_ADMIN_PASSWORD: 'short' }), 'input.invalid');
      expect(err.message).toContain('ACTS_ADMIN_PASSWORD');
      expect(await auth.setupNeeded()).toBe(true);
    });
  });

  describe('login and sessions', () => {
    let adminId: string;
    beforeEach(async () => {
      adminId = (await auth.setup('root', PASSWORD)).id;
    });

    it('signs in with the right password and resolves the session', async () => {
      const session = await auth.login('root', PASSWORD, IP);
      expect(session.caller).toEqual({ userId: adminId, name: 'root', roles: ['admin'], groups: [], via: 'session' });
      expect(session.expires).toBe(clock.now() + 7 * 24 * HOUR);
      expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await auth.fromSession(session.token)).toEqual(session.caller);
    });

    it('stores only the SHA-256 of the session secret and an argon2id hash of the password', async () => {
      const { token } = await auth.login('root', PASSWORD, IP);
      const sessions = await store().sessions.query();
      expect(sessions.rows.map((row) => row.id)).toEqual([sha256(token)]);
      const text = await storedText();
      expect(text).not.toContain(token);
      expect(text).not.toContain(PASSWORD);
      expect((await store().users.find(adminId))!.password_hash).toMatch(/^\$argon2id\$/);
    });

    it('refuses a wrong password, an unknown user and a disabled user with auth.invalid', async () => {
      await refusal(auth.login('root', 'wrong password', IP), 'auth.invalid');
      await refusal(auth.login('nobody', PASSWORD, IP), 'auth.invalid');
      await refusal(auth.login('', PASSWORD, IP), 'auth.invalid');
      await refusal(auth.login('root', 'x'.repeat(5000), IP), 'auth.invalid');
      const ann = await auth.users.create('ann', PASSWORD, ['operator']);
      await auth.users.setDisabled(ann.id, true);
      const err = await refusal(auth.login('ann', PASSWORD, IP), 'auth.invalid');
      expect(err.message).toMatch(/disabled/);
      expect(await rowsOf('sessions')).toEqual([]);
    });

    it('logs out: the session is gone', async () => {
      const { token } = await auth.login('root', PASSWORD, IP);
      const other = await auth.login('root', PASSWORD, IP);
      await auth.logout(token);
      expect(await auth.fromSession(token)).toBeNull();
      expect(await auth.fromSession(other.token)).not.toBeNull();
      await auth.logout(token); // twice is fine
      await auth.logout('not a session');
      expect((await store().sessions.query()).rows.map((row) => row.id)).toEqual([sha256(other.token)]);
    });

    it('resolves nothing from unknown or malformed secrets', async () => {
      expect(await auth.fromSession('')).toBeNull();
      expect(await auth.fromSession('x'.repeat(10_000))).toBeNull();
      expect(await auth.fromSession(crypto.randomBytes(32).toString('base64url'))).toBeNull();
      expect(await auth.fromSession(undefined as unknown as string)).toBeNull();
    });

    it('expires an unused session after the TTL and deletes it', async () => {
      auth = make({ sessionTtlMs: HOUR });
      const { token, expires } = await auth.login('root', PASSWORD, IP);
      expect(expires).toBe(clock.now() + HOUR);
      clock.advance(HOUR - 1);
      expect(await auth.fromSession(token)).not.toBeNull(); // slides: expires is now + 1 h
      clock.advance(HOUR - 1);
      expect(await auth.fromSession(token)).not.toBeNull();
      clock.advance(HOUR);
      expect(await auth.fromSession(token)).toBeNull();
      expect(await rowsOf('sessions')).toEqual([]);
    });

    it('never slides a session past its maximum age', async () => {
      auth = make({ sessionTtlMs: HOUR, sessionMaxAgeMs: 2 * HOUR });
      const { token } = await auth.login('root', PASSWORD, IP);
      for (let i = 0; i < 3; i++) {
        clock.advance(30 * MINUTE);
        expect(await auth.fromSession(token), `after ${(i + 1) * 30} min`).not.toBeNull();
      }
      clock.advance(30 * MINUTE - 1);
      expect(await auth.fromSession(token)).not.toBeNull();
      clock.advance(1); // 2 h after login
      expect(await auth.fromSession(token)).toBeNull();
    });

    it('writes last_seen at most once a minute', async () => {
      const { token } = await auth.login('root', PASSWORD, IP);
      const start = clock.now();
      clock.advance(30_000);
      await auth.fromSession(token);
      expect((await store().sessions.find(sha256(token)))!.last_seen).toBe(start);
      clock.advance(30_000);
      await auth.fromSession(token);
      expect((await store().sessions.find(sha256(token)))!.last_seen).toBe(start + MINUTE);
    });

    it('drops the user\'s expired sessions at the next login', async () => {
      auth = make({ sessionTtlMs: HOUR });
      await auth.login('root', PASSWORD, IP);
      clock.advance(2 * HOUR);
      const fresh = await auth.login('root', PASSWORD, IP);
      expect((await store().sessions.query()).rows.map((row) => row.id)).toEqual([sha256(fresh.token)]);
    });

    it('sees role changes and disabling at once in existing sessions', async () => {
      const ann = await auth.users.create('ann', PASSWORD, ['viewer']);
      const { token } = await auth.login('ann', PASSWORD, IP);
      await auth.users.setRoles(ann.id, ['operator', 'designer']);
      expect((await auth.fromSession(token))!.roles).toEqual(['designer', 'operator']);
      await auth.users.setDisabled(ann.id, true);
      expect(await auth.fromSession(token)).toBeNull();
      expect(await rowsOf('sessions')).toEqual([]); // disabling ended them
    });

    it('ends the sessions of a user whose password changes', async () => {
      const { token } = await auth.login('root', PASSWORD, IP);
      await auth.users.setPassword(adminId, 'a new password');
      expect(await auth.fromSession(token)).toBeNull();
      await refusal(auth.login('root', PASSWORD, IP), 'auth.invalid');
      expect((await auth.login('root', 'a new password', IP)).caller.name).toBe('root');
      await refusal(auth.users.setPassword(adminId, 'short'), 'input.invalid');
      await refusal(auth.users.setPassword('nobody', 'long enough'), 'user.not_found');
    });
  });

  describe('failed-login limits', () => {
    const SECOND = 1000;
    /** Fails a sign-in as `name` from each address in turn. */
    const failFrom = async (name: string, ips: string[]) => {
      for (const ip of ips) await refusal(auth.login(name, 'wrong password', ip), 'auth.invalid');
    };
    const addresses = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}.${i}`);

    beforeEach(async () => {
      await auth.setup('root', PASSWORD);
      await auth.users.create('ann', PASSWORD, ['viewer']);
    });

    it('backs one address off one name, doubling the wait, while the real user signs in from another address', async () => {
      await failFrom('ann', Array(4).fill(IP));
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        await failFrom('ann', [IP]);
        const err = await refusal(auth.login('ann', PASSWORD, IP), 'auth.rate_limited');
        expect(err.message).toMatch(/from your address.*try again in \d+ s/);
        waits.push((err.details as { retryAfterSecs: number; reason: string }).retryAfterSecs);
        expect(err.details).toMatchObject({ reason: 'name_and_address' });
        expect((await auth.login('ann', PASSWORD, '10.0.0.2')).caller.name).toBe('ann');
        clock.advance(waits[i] * SECOND);
      }
      expect(waits).toEqual([30, 60, 120, 240]);
      expect((await auth.login('ann', PASSWORD, IP)).caller.name).toBe('ann'); // waited: the right password works, and clears the back-off
      await failFrom('ann', Array(4).fill(IP));
      expect((await auth.login('ann', PASSWORD, IP)).caller.name).toBe('ann');
    });

    it('caps the wait, forgets an address an hour after its last failure, and counts a name whatever its case', async () => {
      for (let i = 0; i < 12; i++) {
        if (i > 0) clock.advance(15 * MINUTE);
        await refusal(auth.login('ANN', 'wrong password', IP), 'auth.invalid');
      }
      expect((await refusal(auth.login('ann', PASSWORD, IP), 'auth.rate_limited')).details).toMatchObject({ retryAfterSecs: 15 * 60 });
      clock.advance(HOUR);
      await failFrom('ann', Array(4).fill(IP)); // forgotten: four free failures again
      expect((await auth.login('ann', PASSWORD, IP)).caller.name).toBe('ann');
    });

    it('blocks an address that guesses at many names; other addresses still sign in', async () => {
      auth = make({ loginLimits: { perIp: { max: 3, windowMs: MINUTE } } });
      for (const name of ['a1', 'a2', 'a3']) await refusal(auth.login(name, PASSWORD, IP), 'auth.invalid');
      const err = await refusal(auth.login('root', PASSWORD, IP), 'auth.rate_limited');
      expect(err.details).toEqual({ retryAfterSecs: 60, reason: 'address' });
      expect(err.message).toMatch(/from your address: try again in 60 s/);
      expect((await auth.login('root', PASSWORD, '10.0.0.2')).caller.name).toBe('root');
      clock.advance(MINUTE);
      expect((await auth.login('root', PASSWORD, IP)).caller.name).toBe('root');
    });

    it('slows a name guessed at from many addresses at new addresses only, with a growing wait', async () => {
      await auth.login('ann', PASSWORD, '10.5.0.1'); // ann's usual place
      await failFrom('ann', addresses('10.6.0', 10));
      expect((await auth.login('ann', PASSWORD, '10.7.0.1')).caller.name).toBe('ann'); // ten failing addresses are free
      await failFrom('ann', ['10.6.1.0']);
      const err = await refusal(auth.login('ann', PASSWORD, '10.7.0.2'), 'auth.rate_limited');
      expect(err.details).toEqual({ retryAfterSecs: 5, reason: 'name' });
      expect(err.message).toMatch(/many addresses .*try again in 5 s/);
      expect((await auth.login('ann', PASSWORD, '10.5.0.1')).caller.name).toBe('ann'); // not where she signed in before
      expect((await auth.login('ann', PASSWORD, '10.7.0.1')).caller.name).toBe('ann');
      clock.advance(5 * SECOND);
      await failFrom('ann', ['10.6.1.1']);
      expect((await refusal(auth.login('ann', PASSWORD, '10.7.0.3'), 'auth.rate_limited')).details).toEqual({ retryAfterSecs: 10, reason: 'name' });
      await refusal(auth.login('ann', 'wrong password', '10.6.1.2'), 'auth.rate_limited'); // the attackers wait too
      clock.advance(10 * SECOND);
      expect((await auth.login('ann', PASSWORD, '10.7.0.3')).caller.name).toBe('ann');
    });

    it('never slows the last enabled admin name-wide: it signs in from a fresh address at once', async () => {
      await failFrom('root', addresses('10.6.0', 30));
      expect((await auth.login('root', PASSWORD, '10.8.0.1')).caller.name).toBe('root');
      await auth.users.create('second', PASSWORD, ['admin']);
      await failFrom('second', addresses('10.6.2', 11));
      expect((await refusal(auth.login('second', PASSWORD, '10.8.0.2'), 'auth.rate_limited')).details).toMatchObject({ reason: 'name' });
    });
  });

  describe('users and roles', () => {
    let adminId: string;
    beforeEach(async () => {
      adminId = (await auth.setup('root', PASSWORD)).id;
    });

    it('creates, gets and lists users without password hashes', async () => {
      clock.advance(1000);
      const ann = await auth.users.create('ann', PASSWORD, ['viewer', 'operator', 'viewer']);
      expect(ann).toEqual({ id: ann.id, name: 'ann', roles: ['operator', 'viewer'], groups: [], email: null, disabled: false, create_time: clock.now(), update_time: clock.now() });
      expect(await auth.users.get(ann.id)).toEqual(ann);
      const list = await auth.users.list();
      expect(list.map((u) => u.name)).toEqual(['ann', 'root']);
      for (const info of [...list, ann]) expect(Object.keys(info).sort()).toEqual(['create_time', 'disabled', 'email', 'groups', 'id', 'name', 'roles', 'update_time']);
    });

    it('validates roles and names', async () => {
      await refusal(auth.users.create('ann', PASSWORD, []), 'input.invalid');
      await refusal(auth.users.create('ann', PASSWORD, ['root' as never]), 'input.invalid');
      await refusal(auth.users.create('ann', PASSWORD, 'admin' as never), 'input.invalid');
      await refusal(auth.users.create('', PASSWORD, ['viewer']), 'input.invalid');
      await refusal(auth.users.create('a'.repeat(65), PASSWORD, ['viewer']), 'input.invalid');
      await refusal(auth.users.create('ann', 'short', ['viewer']), 'input.invalid');
      await refusal(auth.users.setRoles(adminId, []), 'input.invalid');
      await refusal(auth.users.setRoles(adminId, ['admin', 'owner' as never]), 'input.invalid');
      expect((await auth.users.list()).map((u) => u.name)).toEqual(['root']);
    });

    it('refuses a duplicate name and unknown ids', async () => {
      await auth.users.create('ann', PASSWORD, ['viewer']);
      await refusal(auth.users.create('ann', 'other password', ['admin']), 'user.duplicate');
      await refusal(auth.users.get('nobody'), 'user.not_found');
      await refusal(auth.users.setRoles('nobody', ['viewer']), 'user.not_found');
      await refusal(auth.users.setDisabled('nobody', true), 'user.not_found');
    });

    it('creates concurrent users with one name once', async () => {
      const results = await Promise.allSettled([1, 2, 3].map(() => auth.users.create('bob', PASSWORD, ['viewer'])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await auth.users.list()).filter((u) => u.name === 'bob')).toHaveLength(1);
    });

    it.skipIf(backend === 'memory')('lets the unique index refuse a name another server instance took after the check', async () => {
      await auth.users.create('bob', PASSWORD, ['viewer']);
      // Another instance inserted 'bob' between this one's name check and its insert: the first name lookup misses it.
      const queries = store().serverQueries;
      let lookups = 0;
      const late = Object.create(queries, {
        userNamed: { value: async (name: string) => (lookups++ === 0 ? undefined : queries.userNamed(name)) },
      }) as typeof queries;
      const elsewhere = createAuth({ users: store().users, sessions: store().sessions, apiTokens: store().apiTokens, groups: store().groups, serverQueries: late }, { clock, passwordHashing: CHEAP });
      await refusal(elsewhere.users.create('bob', 'other password', ['admin']), 'user.duplicate');
      expect(lookups).toBe(2); // the miss, then the look after the refused insert
      expect((await auth.users.list()).filter((u) => u.name === 'bob')).toMatchObject([{ roles: ['viewer'] }]);
    });

    it('keeps the last enabled admin an enabled admin', async () => {
      await refusal(auth.users.setRoles(adminId, ['viewer']), 'auth.forbidden');
      await refusal(auth.users.setDisabled(adminId, true), 'auth.forbidden');
      expect(await auth.users.get(adminId)).toMatchObject({ roles: ['admin'], disabled: false });
      const second = await auth.users.create('second', PASSWORD, ['admin']);
      await auth.users.setDisabled(second.id, true);
      await refusal(auth.users.setRoles(adminId, ['designer']), 'auth.forbidden'); // a disabled admin does not count
      await auth.users.setDisabled(second.id, false);
      expect(await auth.users.setRoles(adminId, ['designer'])).toMatchObject({ roles: ['designer'] });
      await refusal(auth.users.setDisabled(second.id, true), 'auth.forbidden');
      expect(await auth.users.setRoles(second.id, ['admin', 'viewer'])).toMatchObject({ roles: ['admin', 'viewer'] });
    });

    it('lets two concurrent demotions leave one admin', async () => {
      const second = await auth.users.create('second', PASSWORD, ['admin']);
      const results = await Promise.allSettled([auth.users.setRoles(adminId, ['viewer']), auth.users.setRoles(second.id, ['viewer'])]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((await auth.users.list()).filter((u) => u.roles.includes('admin'))).toHaveLength(1);
    });

    it('re-enables a user', async () => {
      const ann = await auth.users.create('ann', PASSWORD, ['viewer']);
      clock.advance(5000);
      expect(await auth.users.setDisabled(ann.id, true)).toMatchObject({ disabled: true, update_time: clock.now() });
      expect(await auth.users.setDisabled(ann.id, false)).toMatchObject({ disabled: false });
      expect((await auth.login('ann', PASSWORD, IP)).caller.name).toBe('ann');
    });
  });

  describe('API tokens', () => {
    let annId: string;
    beforeEach(async () => {
      await auth.setup('root', PASSWORD);
      annId = (await auth.users.create('ann', PASSWORD, ['operator'])).id;
    });

    it('creates a token shown once, resolves it and stores only its SHA-256', async () => {
      const { info, token } = await auth.tokens.create(annId, 'ci');
      expect(token).toMatch(/^acts_[A-Za-z0-9_-]{43}$/);
      expect(info).toEqual({ id: info.id, user_id: annId, name: 'ci', create_time: clock.now(), last_used: null });
      expect(await auth.fromToken(token)).toEqual({ userId: annId, name: 'ann', roles: ['operator'], groups: [], via: 'token' });
      const row = (await store().apiTokens.find(info.id))!;
      expect(row.token_hash).toBe(sha256(token));
      expect(await storedText()).not.toContain(token);
      expect(await storedText()).not.toContain(token.slice('acts_'.length));
      expect(await auth.tokens.list(annId)).toEqual([{ ...info, last_used: clock.now() }]);
    });

    it('updates last_used at most once a minute', async () => {
      const { info, token } = await auth.tokens.create(annId, 'ci');
      const created = clock.now();
      await auth.fromToken(token);
      clock.advance(59_000);
      await auth.fromToken(token);
      expect((await store().apiTokens.find(info.id))!.last_used).toBe(created);
      clock.advance(1_000);
      await auth.fromToken(token);
      expect((await store().apiTokens.find(info.id))!.last_used).toBe(created + MINUTE);
    });

    it('revokes: the token no longer resolves or lists; revoking twice is fine', async () => {
      const first = await auth.tokens.create(annId, 'ci');
      clock.advance(1);
      const second = await auth.tokens.create(annId, 'laptop');
      expect((await auth.tokens.list(annId)).map((t) => t.name)).toEqual(['ci', 'laptop']);
      await auth.tokens.revoke(first.info.id);
      await auth.tokens.revoke(first.info.id);
      await auth.tokens.revoke('nothing');
      expect(await auth.fromToken(first.token)).toBeNull();
      expect(await auth.fromToken(second.token)).not.toBeNull();
      expect((await auth.tokens.list(annId)).map((t) => t.name)).toEqual(['laptop']);
      expect(await store().apiTokens.find(first.info.id)).toBeUndefined();
    });

    it('resolves nothing for a disabled user, again after re-enabling', async () => {
      const { token } = await auth.tokens.create(annId, 'ci');
      await auth.users.setDisabled(annId, true);
      expect(await auth.fromToken(token)).toBeNull();
      await auth.users.setDisabled(annId, false);
      expect((await auth.fromToken(token))!.name).toBe('ann');
    });

    it('refuses unknown users and bad names; ignores malformed tokens', async () => {
      await refusal(auth.tokens.create('nobody', 'ci'), 'user.not_found');
      await refusal(auth.tokens.list('nobody'), 'user.not_found');
      await refusal(auth.tokens.create(annId, ' '), 'input.invalid');
      await refusal(auth.tokens.create(annId, 'x'.repeat(101)), 'input.invalid');
      const { token } = await auth.tokens.create(annId, 'ci');
      expect(await auth.fromToken(token.slice('acts_'.length))).toBeNull(); // the prefix is part of it
      expect(await auth.fromToken(`${token}x`)).toBeNull();
      expect(await auth.fromToken('acts_')).toBeNull();
      expect(await auth.fromSession(token)).toBeNull(); // a token is not a session
    });
  });
});

describe('password hashing defaults', () => {
  const store = useTestStore('memory');

  it('uses argon2id with the library\'s default costs', async () => {
    const auth = createAuth(store());
    const admin = await auth.setup('root', PASSWORD);
    expect((await store().users.find(admin.id))!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await auth.login('root', PASSWORD, IP)).caller.name).toBe('root');
  });
});
