/**
 * API: sign-in plumbing (cookie flags, logout, me, setup), CSRF, the role table, request limits
 * and error hygiene, over real HTTP on SQLite with the real auth and audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, passwordOf, rawCall, startTestServer, type RawOptions, type RawReply, type TestServer } from './helpers/server.ts';

let t: TestServer;

function raw(path: string, options: RawOptions = {}): Promise<RawReply> {
  return rawCall(t.url, path, options);
}

const csrf = { 'x-acts-csrf': '1' };

async function login(name: string): Promise<string> {
  const reply = await raw('auth.login', { body: { name, password: passwordOf(name) }, headers: csrf });
  expect(reply.status).toBe(200);
  return reply.setCookie!.split(';')[0];
}

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in plumbing', () => {
  it('login sets an httpOnly, SameSite=Lax session cookie on Path=/; me reads it; logout clears and revokes it', async () => {
    const reply = await raw('auth.login', { body: { name: 'alice', password: passwordOf('alice') }, headers: csrf });
    expect(reply.status).toBe(200);
    expect(reply.setCookie).toMatch(/^acts_session=[\w-]{43}; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
    const cookie = reply.setCookie!.split(';')[0];
    const me = await raw('auth.me', { query: true, headers: { cookie } });
    expect(me.body.result?.data).toEqual({ caller: { userId: t.users.alice.id, name: 'alice', roles: ['operator'], groups: [], via: 'session' } });
    const out = await raw('auth.logout', { headers: { cookie, ...csrf } });
    expect(out.setCookie).toMatch(/^acts_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    expect((await raw('auth.me', { query: true, headers: { cookie } })).body.result?.data).toEqual({ caller: null });
    expect(await t.audit.last('auth.login')).toMatchObject({ target: 'alice', result: 'ok' });
    expect(await t.audit.last('auth.logout')).toMatchObject({ actor: t.users.alice.id, result: 'ok' });
  });

  it('a wrong password is auth.invalid, audited without the password', async () => {
    const reply = await raw('auth.login', { body: { name: 'alice', password: 'guess' }, headers: csrf });
    expect(reply.status).toBe(401);
    expect(reply.body.error?.data.code).toBe('auth.invalid');
    expect(reply.setCookie).toBeNull();
    const entry = (await t.audit.last('auth.login'))!;
    expect(entry.result).toBe('auth.invalid');
    expect(JSON.stringify(entry)).not.toContain('guess');
  });

  it('sets Secure on the cookie when configured', async () => {
    const secure = await startTestServer({ secureCookie: true });
    try {
      const res = await fetch(`${secure.url}/api/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json', ...csrf }, body: JSON.stringify({ name: 'bob', password: passwordOf('bob') }) });
      expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    } finally {
      await secure.close();
    }
  });

  it('setup: closed once an admin exists (auth.setup_done)', async () => {
    expect((await raw('auth.setupNeeded', { query: true })).body.result?.data).toEqual({ needed: false });
    expect((await raw('auth.setup', { body: { name: 'root', password: passwordOf('root') }, headers: csrf })).body.error?.data.code).toBe('auth.setup_done');
    expect(await t.audit.last('auth.setup')).toMatchObject({ target: 'root', result: 'auth.setup_done' });
  });
});

describe('CSRF', () => {
  it('a cookie-signed mutation needs x-acts-csrf: 1; a bearer-token one does not; login always does', async () => {
    const cookie = await login('operator');
    const forged = await raw('messages.redo', { headers: { cookie } });
    expect(forged.status).toBe(403);
    expect(forged.body.error?.data.code).toBe('auth.forbidden');
    expect(forged.body.error?.message).toMatch(/x-acts-csrf/);
    expect(await t.audit.last('message.redo')).toBeUndefined();
    expect((await raw('messages.redo', { headers: { cookie, ...csrf } })).status).toBe(200);
    expect((await raw('messages.redo', { headers: { authorization: `Bearer ${t.tokens.operator}` } })).status).toBe(200);
    expect((await raw('auth.login', { body: { name: 'alice', password: passwordOf('alice') } })).status).toBe(403);
    expect((await raw('health.get', { query: true, headers: { cookie } })).status).toBe(200);
  });
});

describe('the role table', () => {
  const cases: Array<[string, (c: ReturnType<TestServer['as']>) => Promise<unknown>, string[]]> = [
    ['health.get', (c) => c.health.get.query(), ['viewer', 'operator', 'designer', 'admin']],
    ['models.deploy', (c) => c.models.deploy.mutate({ source: 'id: roles\nsteps: []\n' }), ['designer', 'admin']],
    ['processes.start', (c) => c.processes.start.mutate({ mid: 'none' }), ['operator', 'admin']],
    ['triggers.setEnabled', (c) => c.triggers.setEnabled.mutate({ id: 'none', enabled: false }), ['designer', 'admin']],
    ['triggers.fire', (c) => c.triggers.fire.mutate({ id: 'none' }), ['operator', 'admin']],
    ['messages.ack', (c) => c.messages.ack.mutate({ id: 'none' }), ['operator', 'admin']],
    ['inbox.list', (c) => c.inbox.list.query(), ['operator', 'admin']],
    ['packages.register', (c) => c.packages.register.mutate({ name: 'Bad Name', schema: {} }), ['designer', 'admin']],
    ['workers.poll', (c) => c.workers.poll.mutate({ packages: ['ext.none'], waitSecs: 0 }), ['operator', 'admin']],
    ['workers.complete', (c) => c.workers.complete.mutate({ lease: 'none.1' }), ['operator', 'admin']],
    ['users.list', (c) => c.users.list.query(), ['admin']],
    ['users.setDisabled', (c) => c.users.setDisabled.mutate({ id: 'none', disabled: true }), ['admin']],
    ['audit.query', (c) => c.audit.query.query(), ['admin']],
    ['tokens.list', (c) => c.tokens.list.query(), ['viewer', 'operator', 'designer', 'admin']],
  ];
  it.each(cases)('%s is open to exactly its roles', async (_name, call, roles) => {
    for (const who of ['viewer', 'operator', 'designer', 'admin']) {
      const outcome = await call(t.as(who)).then(
        () => 'ok',
        (err: { data?: { code: string } }) => err.data?.code,
      );
      if (roles.includes(who)) expect(outcome, who).not.toBe('auth.forbidden');
      else expect(outcome, who).toBe('auth.forbidden');
    }
    expect(await apiError(call(t.as('anon')))).toMatchObject({ code: 'auth.required', httpStatus: 401 });
    expect((await apiError(call(t.as('unknown-user')))).code).toBe('auth.required');
  });
});

describe('request limits and error hygiene', () => {
  it('a body above 1 MiB is input.too_large; malformed JSON is input.invalid; an unknown procedure is a 404', async () => {
    const big = await raw('models.validate', { rawBody: JSON.stringify({ source: 'x'.repeat(1100 * 1024) }), headers: { authorization: `Bearer ${t.tokens.designer}` } });
    expect(big.status).toBe(413);
    expect(big.body.error?.data.code).toBe('input.too_large');
    const bad = await raw('messages.redo', { rawBody: '{not json', headers: { authorization: `Bearer ${t.tokens.operator}` } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.data.code).toBe('input.invalid');
    const missing = await raw('nothing.here', { headers: { authorization: `Bearer ${t.tokens.operator}` } });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.data.code).toBe('input.invalid');
  });

  it('an unexpected failure is `internal` with a generic message: no stack, no connection string', async () => {
    const models = t.engine.models as { list: unknown };
    const original = models.list;
    models.list = async () => {
      throw new Error('connect postgresql://app:s3cret@db/acts failed');
    };
    try {
      const reply = await raw('models.list', { query: true, headers: { authorization: `Bearer ${t.tokens.viewer}` } });
      expect(reply.status).toBe(500);
      expect(reply.body.error?.data.code).toBe('internal');
      expect(reply.text).not.toMatch(/s3cret|postgresql:|stack|\.ts:/);
    } finally {
      models.list = original;
    }
  });
});
