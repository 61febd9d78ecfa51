/**
 * Sign-in, users, API tokens and the audit log over real HTTP with the real server/auth and
 * server/audit, on SQLite and on PostgreSQL: session cookies, wrong passwords, rate limiting,
 * logout, the one-time admin setup, user administration (admins only, last-admin protection),
 * own and others' tokens, changing one's password, the expired-session sweep, audit entries of
 * every kind of change — and no password, hash or token secret in any response or log line.
 *
 * The tests of one backend share one server and run in order (later ones rely on earlier users).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../server/http/logger.ts';
import { REQUEST_DETAIL_BYTES } from '../server/api/audit.ts';
import { SQL_BACKENDS } from './helpers/databases.ts';
import { apiClient, apiError, passwordOf, rawCall, startTestServer, USERS, type RawOptions, type TestServer } from './helpers/server.ts';

const csrf = { 'x-acts-csrf': '1' };

const MODEL = `id: audited
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: approve, params: { assignees: [alice] } }
`;

const USER_KEYS = ['create_time', 'disabled', 'email', 'groups', 'id', 'name', 'roles', 'update_time'];
const TOKEN_KEYS = ['create_time', 'id', 'last_used', 'name', 'user_id'];

describe.each(SQL_BACKENDS)('on %s', (backend) => {
  let t: TestServer;
  let fresh: TestServer;
  const logLines: string[] = [];
  /** Every response body the tests received, with the procedure path. */
  const replies: Array<{ path: string; text: string }> = [];
  /** Every password the tests sent (right or wrong). */
  const passwords = new Set<string>(Object.keys(USERS).map(passwordOf));
  /** Token secrets handed out by `tokens.create` (allowed only in that one reply). */
  const secrets = new Set<string>();

  const pw = (text: string): string => (passwords.add(text), text);

  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    replies.push({ path: new URL(input instanceof Request ? input.url : String(input)).pathname, text: await res.clone().text() });
    return res;
  };

  /** A tRPC client by API token (a test user's, or any secret) or by cookie (with the CSRF header). */
  const as = (who: string) => apiClient(t.url, { token: t.tokens[who] ?? who, fetch: recordingFetch });
  const byCookie = (cookie: string, server = t) => apiClient(server.url, { headers: { cookie, ...csrf }, fetch: recordingFetch });

  async function raw(procedure: string, options: RawOptions = {}, server = t) {
    const reply = await rawCall(server.url, procedure, options);
    replies.push({ path: `/api/trpc/${procedure}`, text: reply.text });
    return reply;
  }

  /** Signs in; the `name=value` of the session cookie. */
  async function login(name: string, password = passwordOf(name), server = t): Promise<string> {
    const reply = await raw('auth.login', { body: { name, password: pw(password) }, headers: csrf }, server);
    expect(reply.status, reply.text).toBe(200);
    return reply.setCookie!.split(';')[0];
  }

  const loginCode = async (name: string, password: string) => (await raw('auth.login', { body: { name, password: pw(password) }, headers: csrf })).body.error?.data.code;
  const meOf = async (cookie: string) => ((await raw('auth.me', { query: true, headers: { cookie } })).body.result?.data as { caller: { name: string; roles: string[] } | null }).caller;

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _enc, done) => void (logLines.push(String(chunk)), done()) });
    const log = createLogger({ level: 'debug', destination: sink });
    t = await startTestServer({ backend, log, sessionSweepMs: 25, users: { ...USERS, locked: ['viewer'], dave: ['operator'] } });
    fresh = await startTestServer({ backend, log, users: { viewer: ['viewer'] } });
  }, 60_000);
  afterAll(async () => {
    await fresh?.close();
    await t?.close();
  });

  describe('sign-in', () => {
    it('login with the real password sets an httpOnly SameSite cookie that signs in; logout ends it', async () => {
      const reply = await raw('auth.login', { body: { name: 'alice', password: passwordOf('alice') }, headers: csrf });
      expect(reply.setCookie).toMatch(/^acts_session=[\w-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
      expect(reply.body.result?.data).toMatchObject({ caller: { userId: t.users.alice.id, name: 'alice', roles: ['operator'], via: 'session' } });
      const cookie = reply.setCookie!.split(';')[0];
      expect(await meOf(cookie)).toMatchObject({ name: 'alice', roles: ['operator'] });
      expect(await byCookie(cookie).health.get.query()).toMatchObject({ instance: t.engine.instanceId });
      expect(await byCookie(cookie).messages.redo.mutate()).toEqual({ count: 0 });
      expect((await raw('auth.logout', { headers: { cookie, ...csrf } })).status).toBe(200);
      expect(await meOf(cookie)).toBeNull();
      expect(await apiError(byCookie(cookie).health.get.query())).toMatchObject({ code: 'auth.required', httpStatus: 401 });
    });

    it('a wrong password or an unknown name is auth.invalid (401) without a cookie', async () => {
      const wrong = await raw('auth.login', { body: { name: 'alice', password: pw('not-alice-password') }, headers: csrf });
      expect(wrong).toMatchObject({ status: 401, setCookie: null });
      expect(wrong.body.error?.data.code).toBe('auth.invalid');
      expect(await loginCode('nobody-here', 'whatever-password')).toBe('auth.invalid');
      expect(await t.audit.last('auth.login')).toMatchObject({ actor: 'anonymous', target: 'nobody-here', result: 'auth.invalid' });
    });

    it('after 5 failures from one address a name is rate limited there (auth.rate_limited saying why and when, even with the right password); other names are not', async () => {
      for (let i = 0; i < 5; i++) expect(await loginCode('locked', `wrong-password-${i}`)).toBe('auth.invalid');
      const limited = await raw('auth.login', { body: { name: 'locked', password: passwordOf('locked') }, headers: csrf });
      expect(limited.status).toBe(429);
      expect(limited.body.error?.data).toMatchObject({ code: 'auth.rate_limited', details: { retryAfterSecs: expect.any(Number), reason: 'name_and_address' } });
      expect(limited.body.error?.message).toMatch(/too many failed sign-ins as 'locked' from your address .*: try again in \d+ s/);
      expect(await t.audit.last('auth.login')).toMatchObject({ target: 'locked', result: 'auth.rate_limited' });
      await login('bob');
    });

    it('the first-admin setup is open once: then auth.setup_done', async () => {
      const setup = (name: string, password: string) => raw('auth.setup', { body: { name, password: pw(password) }, headers: csrf }, fresh);
      const needed = async () => (await raw('auth.setupNeeded', { query: true }, fresh)).body.result?.data;
      expect(await needed()).toEqual({ needed: true });
      expect((await setup('root', 'sh0rt')).body.error?.data.code).toBe('input.invalid');
      const made = await setup('root', 'root-first-password');
      expect(made.status).toBe(200);
      expect(Object.keys(made.body.result?.data as object).sort()).toEqual(USER_KEYS);
      expect(made.body.result?.data).toMatchObject({ name: 'root', roles: ['admin'], disabled: false });
      expect(await needed()).toEqual({ needed: false });
      const again = await setup('root2', 'root2-first-password');
      expect(again.status).toBe(409);
      expect(again.body.error?.data.code).toBe('auth.setup_done');
      const cookie = await login('root', 'root-first-password', fresh);
      expect((await byCookie(cookie, fresh).users.list.query()).rows.map((u) => u.name).sort()).toEqual(['root', 'viewer']);
      expect((await fresh.audit.query({ action: 'auth.setup' })).rows.map((e) => [e.target, e.result])).toEqual([
        ['root2', 'auth.setup_done'],
        ['root', 'ok'],
        ['root', 'input.invalid'],
      ]);
    });

    it('expired sessions are deleted by the server on its timer; live ones stay', async () => {
      const now = Date.now();
      const row = (id: string, expires: number) => ({ id, user_id: t.users.viewer.id, expires, create_time: now - 1000, last_seen: now - 1000 });
      await t.store.sessions.create(row('expired-session', now - 1));
      await t.store.sessions.create(row('live-session', now + 3_600_000));
      const deadline = Date.now() + 5000;
      while ((await t.store.sessions.exists('expired-session')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await t.store.sessions.exists('expired-session')).toBe(false);
      expect(await t.store.sessions.exists('live-session')).toBe(true);
      expect(logLines.join('')).toContain('"msg":"expired sessions deleted"');
    });
  });

  describe('users (admins only)', () => {
    let carol: { id: string };

    it('create, list and get; never a password hash; bad input and duplicates are refused', async () => {
      const created = await as('admin').users.create.mutate({ name: 'carol', password: pw('carol-password-1'), roles: ['operator'] });
      carol = created;
      expect(Object.keys(created).sort()).toEqual(USER_KEYS);
      expect(created).toMatchObject({ name: 'carol', roles: ['operator'], disabled: false });
      expect(await apiError(as('admin').users.create.mutate({ name: 'carol', password: pw('carol-password-2'), roles: ['viewer'] }))).toMatchObject({ code: 'user.duplicate', httpStatus: 409 });
      expect((await apiError(as('admin').users.create.mutate({ name: 'erin', password: pw('sh0rt'), roles: ['viewer'] }))).code).toBe('input.invalid');
      expect((await apiError(as('admin').users.create.mutate({ name: 'erin', password: pw('erin-password-1'), roles: ['root' as 'admin'] }))).code).toBe('input.invalid');
      expect((await apiError(as('admin').users.create.mutate({ name: 'erin', password: pw('erin-password-1'), roles: [] }))).code).toBe('input.invalid');
      const list = await as('admin').users.list.query();
      expect(list.rows.map((u) => u.name)).toContain('carol');
      for (const user of list.rows) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
      expect(await as('admin').users.get.query({ id: carol.id })).toEqual(created);
      expect((await apiError(as('admin').users.get.query({ id: 'missing' }))).code).toBe('user.not_found');
      expect(await t.audit.last('user.create')).toMatchObject({ actor: t.users.admin.id, actor_name: 'admin', target: 'erin', result: 'input.invalid' });
    });

    it('everyone else gets auth.forbidden (and anonymous callers auth.required)', async () => {
      for (const who of ['viewer', 'operator', 'designer']) {
        expect((await apiError(as(who).users.list.query())).code, who).toBe('auth.forbidden');
        expect((await apiError(as(who).users.create.mutate({ name: 'mallory', password: pw('mallory-password'), roles: ['admin'] }))).code, who).toBe('auth.forbidden');
        expect((await apiError(as(who).users.setRoles.mutate({ id: t.users[who].id, roles: ['admin'] }))).code, who).toBe('auth.forbidden');
        expect((await apiError(as(who).users.setPassword.mutate({ id: t.users.admin.id, password: pw('mallory-password') }))).code, who).toBe('auth.forbidden');
        expect((await apiError(as(who).users.setDisabled.mutate({ id: t.users.admin.id, disabled: true }))).code, who).toBe('auth.forbidden');
        expect((await apiError(as(who).audit.query.query({}))).code, who).toBe('auth.forbidden');
      }
      expect((await apiError(apiClient(t.url).users.list.query())).code).toBe('auth.required');
      expect((await as('admin').users.list.query()).rows.find((u) => u.name === 'mallory')).toBeUndefined();
    });

    it('roles change at once, audited with before and after', async () => {
      const cookie = await login('carol', 'carol-password-1');
      expect(await as('admin').users.setRoles.mutate({ id: carol.id, roles: ['viewer', 'designer'] })).toMatchObject({ roles: ['designer', 'viewer'] });
      expect(await meOf(cookie)).toMatchObject({ roles: ['designer', 'viewer'] });
      expect(await t.audit.last('user.roles')).toMatchObject({
        actor_name: 'admin',
        target: carol.id,
        detail: { name: 'carol', from: ['operator'], to: ['viewer', 'designer'] },
        result: 'ok',
      });
    });

    it('a new password ends the sessions; disabling refuses sign-in and tokens until enabled again', async () => {
      const cookie = await login('carol', 'carol-password-1');
      const token = (await byCookie(cookie).tokens.create.mutate({ name: 'carol-cli' })).token;
      secrets.add(token);
      expect(await as('admin').users.setPassword.mutate({ id: carol.id, password: pw('carol-password-2') })).toEqual({ ok: true });
      expect(await meOf(cookie)).toBeNull();
      expect(await loginCode('carol', 'carol-password-1')).toBe('auth.invalid');
      await login('carol', 'carol-password-2');
      expect(await as('admin').users.setDisabled.mutate({ id: carol.id, disabled: true })).toMatchObject({ disabled: true });
      expect(await loginCode('carol', 'carol-password-2')).toBe('auth.invalid');
      expect((await apiError(as(token).health.get.query())).code).toBe('auth.required');
      expect(await as('admin').users.setDisabled.mutate({ id: carol.id, disabled: false })).toMatchObject({ disabled: false });
      expect(await as(token).health.get.query()).toMatchObject({ instance: t.engine.instanceId });
      const actions = (await t.audit.query({ target: carol.id, limit: 10 })).rows.map((e) => e.action);
      expect(actions.slice(0, 3)).toEqual(['user.enable', 'user.disable', 'user.password']);
    });

    it('the last enabled admin keeps the role and stays enabled', async () => {
      const admin = t.users.admin.id;
      expect(await apiError(as('admin').users.setRoles.mutate({ id: admin, roles: ['viewer'] }))).toMatchObject({ code: 'auth.forbidden', httpStatus: 403 });
      expect((await apiError(as('admin').users.setDisabled.mutate({ id: admin, disabled: true }))).code).toBe('auth.forbidden');
      expect(await t.audit.last('user.roles')).toMatchObject({ target: admin, result: 'auth.forbidden' });
      const second = await as('admin').users.create.mutate({ name: 'admin2', password: pw('admin2-password'), roles: ['admin'] });
      expect(await as('admin').users.setRoles.mutate({ id: second.id, roles: ['viewer'] })).toMatchObject({ roles: ['viewer'] });
      expect((await apiError(as('admin').users.setDisabled.mutate({ id: admin, disabled: true }))).code).toBe('auth.forbidden');
      expect((await as('admin').users.get.query({ id: admin })).roles).toEqual(['admin']);
    });
  });

  describe('API tokens', () => {
    it('a user creates (secret shown once), lists and revokes their own; a revoked token is refused', async () => {
      const cookie = await login('alice');
      const created = await byCookie(cookie).tokens.create.mutate({ name: 'laptop' });
      secrets.add(created.token);
      expect(created.token).toMatch(/^acts_[\w-]{43}$/);
      expect(Object.keys(created.info).sort()).toEqual(TOKEN_KEYS);
      expect(created.info).toMatchObject({ user_id: t.users.alice.id, name: 'laptop', last_used: null });
      const list = await byCookie(cookie).tokens.list.query();
      expect(list.rows.map((x) => x.name)).toEqual(['tests', 'laptop']);
      for (const row of list.rows) expect(Object.keys(row).sort()).toEqual(TOKEN_KEYS);
      expect((await as(created.token).auth.me.query()).caller).toMatchObject({ name: 'alice', via: 'token' });
      expect(await byCookie(cookie).tokens.revoke.mutate({ id: created.info.id })).toEqual({ revoked: true, user_id: t.users.alice.id });
      expect(await apiError(as(created.token).health.get.query())).toMatchObject({ code: 'auth.required', httpStatus: 401 });
      expect((await byCookie(cookie).tokens.list.query()).rows.map((x) => x.name)).toEqual(['tests']);
      expect(await t.audit.last('token.revoke')).toMatchObject({ actor_name: 'alice', target: created.info.id, result: 'ok' });
      expect(await t.audit.last('token.create')).toMatchObject({ actor_name: 'alice', target: t.users.alice.id, detail: { name: 'laptop' }, result: 'ok' });
    });

    it('others may not list or revoke a token that is not theirs; an admin may', async () => {
      const laptop = await as('alice').tokens.create.mutate({ name: 'laptop-2' });
      secrets.add(laptop.token);
      expect(await apiError(as('bob').tokens.revoke.mutate({ id: laptop.info.id }))).toMatchObject({ code: 'auth.forbidden', httpStatus: 403 });
      expect(await apiError(as('bob').tokens.revoke.mutate({ id: 'no-such-token' }))).toMatchObject({ code: 'auth.forbidden' });
      expect((await apiError(as('bob').tokens.list.query({ userId: t.users.alice.id }))).code).toBe('auth.forbidden');
      expect((await as(laptop.token).auth.me.query()).caller).toMatchObject({ name: 'alice' });
      expect(await t.audit.last('token.revoke')).toMatchObject({ actor_name: 'bob', target: 'no-such-token', result: 'auth.forbidden' });

      expect((await as('admin').tokens.list.query({ userId: t.users.alice.id })).rows.map((x) => x.name)).toEqual(['tests', 'laptop-2']);
      expect(await as('admin').tokens.revoke.mutate({ id: laptop.info.id })).toEqual({ revoked: true, user_id: t.users.alice.id });
      expect((await apiError(as(laptop.token).health.get.query())).code).toBe('auth.required');
      expect((await apiError(as('admin').tokens.revoke.mutate({ id: 'no-such-token' }))).code).toBe('input.invalid');
      expect((await apiError(as('alice').tokens.create.mutate({ name: '' }))).code).toBe('input.invalid');
    });
  });

  describe('changing one\'s own password', () => {
    it('needs the current password; the session caller gets a new cookie, old sessions end', async () => {
      const cookie = await login('dave');
      const change = (oldPassword: string, newPassword: string, headers: Record<string, string> = { cookie, ...csrf }) =>
        raw('auth.changePassword', { body: { oldPassword: pw(oldPassword), newPassword: pw(newPassword) }, headers });
      const wrong = await change('not-daves-password', 'dave-password-2');
      expect(wrong.status).toBe(401);
      expect(wrong.body.error?.data.code).toBe('auth.invalid');
      expect((await change(passwordOf('dave'), 'sh0rt')).body.error?.data.code).toBe('input.invalid');
      expect((await change(passwordOf('dave'), 'dave-password-2', { cookie })).body.error?.data.code).toBe('auth.forbidden');
      const done = await change(passwordOf('dave'), 'dave-password-2');
      expect(done.status).toBe(200);
      const renewed = done.setCookie!.split(';')[0];
      expect(renewed).not.toBe(cookie);
      expect(await meOf(cookie)).toBeNull();
      expect(await meOf(renewed)).toMatchObject({ name: 'dave' });
      expect(await loginCode('dave', passwordOf('dave'))).toBe('auth.invalid');
      await login('dave', 'dave-password-2');
      expect((await t.audit.query({ action: 'auth.change_password', actor: t.users.dave.id })).rows.map((e) => e.result)).toEqual(['ok', 'input.invalid', 'auth.invalid']);
    });

    it('by API token: no cookie, and the token keeps working', async () => {
      const reply = await raw('auth.changePassword', { body: { oldPassword: 'dave-password-2', newPassword: pw('dave-password-3') }, headers: { authorization: `Bearer ${t.tokens.dave}` } });
      expect(reply.status).toBe(200);
      expect(reply.setCookie).toBeNull();
      expect((await as('dave').auth.me.query()).caller).toMatchObject({ name: 'dave' });
      await login('dave', 'dave-password-3');
    });
  });

  describe('the audit log', () => {
    it('records deploys, starts, client actions (refused ones with their code), acks and role changes; admins query it', async () => {
      const since = Date.now();
      const channel = t.engine.channel({ id: 'audit-test', ack: true }).onMessage(() => undefined);
      try {
        await as('designer').models.deploy.mutate({ source: MODEL });
        const { pid } = await as('operator').processes.start.mutate({ mid: 'audited' });
        await t.engine.idle();
        const tid = (await as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'approve')!.tid;
        expect((await apiError(as('bob').tasks.complete.mutate({ pid, tid }))).code).toBe('auth.forbidden');
        await as('alice').tasks.complete.mutate({ pid, tid });
        await t.engine.idle();
        const delivery = (await as('viewer').messages.deliveries.query({ pid, chan_id: 'audit-test', status: 'created' })).rows[0];
        await as('operator').messages.ack.mutate({ id: delivery.id });
        await as('admin').users.setRoles.mutate({ id: t.users.bob.id, roles: ['operator', 'viewer'] });

        const entries = (await as('admin').audit.query.query({ from: since, limit: 500 })).rows;
        const find = (action: string, result = 'ok') => entries.find((e) => e.action === action && e.result === result);
        expect(find('model.deploy')).toMatchObject({ actor: t.users.designer.id, actor_name: 'designer', target: 'audited' });
        expect(find('proc.start')).toMatchObject({ actor_name: 'operator', target: 'audited' });
        expect(find('task.complete', 'auth.forbidden')).toMatchObject({ actor_name: 'bob', target: `${pid}/${tid}` });
        expect(find('task.complete')).toMatchObject({ actor: t.users.alice.id, actor_name: 'alice', target: `${pid}/${tid}` });
        expect(find('message.ack')).toMatchObject({ actor_name: 'operator', target: delivery.id });
        expect(find('user.roles')).toMatchObject({ actor_name: 'admin', target: t.users.bob.id, detail: { from: ['operator'], to: ['operator', 'viewer'] } });
        for (const e of entries) expect(e.time).toBeGreaterThanOrEqual(since);
      } finally {
        channel.close();
      }
    });

    it('filters by actor, action, target and time range, newest first, in pages', async () => {
      const query = as('admin').audit.query.query;
      const alice = await query({ actor: t.users.alice.id, limit: 500 });
      expect(alice.count).toBeGreaterThan(2);
      expect(new Set(alice.rows.map((e) => e.actor_name))).toEqual(new Set(['alice']));
      const times = alice.rows.map((e) => e.time);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const [first, second] = [await query({ actor: t.users.alice.id, limit: 2 }), await query({ actor: t.users.alice.id, limit: 2, offset: 2 })];
      expect({ count: first.count, offset: second.offset, limit: second.limit }).toEqual({ count: alice.count, offset: 2, limit: 2 });
      expect([...first.rows, ...second.rows].map((e) => e.id)).toEqual(alice.rows.slice(0, 4).map((e) => e.id));
      expect((await query({ action: 'model.deploy', target: 'audited' })).rows.map((e) => e.actor_name)).toEqual(['designer']);
      const deploy = (await query({ action: 'model.deploy' })).rows[0];
      expect((await query({ action: 'model.deploy', from: deploy.time, to: deploy.time })).rows.map((e) => e.id)).toContain(deploy.id);
      expect((await query({ action: 'model.deploy', to: deploy.time - 1 })).count).toBe(0);
      expect((await apiError(query({ limit: 100_000 }))).code).toBe('input.invalid');
    });

    it("keeps a request's detail by the audit log's one rule: secret keys dropped, past 2 KiB its size and the start of its JSON", async () => {
      await as('designer').models.deploy.mutate({ source: MODEL });
      await as('operator').processes.start.mutate({ mid: 'audited', inputs: { amount: 3, api_token: 'tok-1' } });
      expect((await t.audit.last('proc.start'))?.detail).toEqual({ inputs: { amount: 3 } });

      const note = 'y'.repeat(3000);
      await as('operator').processes.start.mutate({ mid: 'audited', inputs: { password: 'hunter2', note } });
      const detail = (await t.audit.last('proc.start'))?.detail as { truncated: boolean; bytes: number; preview: string };
      const kept = JSON.stringify({ inputs: { note } });
      expect(detail).toMatchObject({ truncated: true, bytes: Buffer.byteLength(kept) });
      expect(kept.startsWith(detail.preview)).toBe(true);
      expect(detail.preview.length).toBeGreaterThan(1500);
      expect(Buffer.byteLength(JSON.stringify(detail))).toBeLessThanOrEqual(REQUEST_DETAIL_BYTES);
      expect(JSON.stringify(detail)).not.toContain('hunter2');
    });
  });

  it('no response body or log line holds a password, a password hash or a token secret', async () => {
    replies.push({ path: 'audit.query', text: JSON.stringify(await as('admin').audit.query.query({ limit: 500 })) });
    const hashes = [
      ...(await t.store.users.query()).rows.map((u) => u.password_hash),
      ...(await fresh.store.users.query()).rows.map((u) => u.password_hash),
      ...(await t.store.apiTokens.query()).rows.map((x) => x.token_hash),
    ];
    const log = logLines.join('');
    expect(log).toContain('"msg":"mutation"');
    for (const secret of [...passwords, ...hashes, ...Object.values(t.tokens), ...secrets, '$argon2', 'password_hash', 'token_hash']) {
      expect(log.includes(secret), `log holds ${secret}`).toBe(false);
      for (const reply of replies) {
        if (secrets.has(secret) && reply.path.endsWith('/tokens.create')) continue;
        expect(reply.text.includes(secret), `${reply.path} holds ${secret}`).toBe(false);
      }
    }
    for (const secret of secrets) expect(replies.filter((r) => r.text.includes(secret))).toHaveLength(1);
  });
});
