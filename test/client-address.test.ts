/**
 * The client address behind trusted reverse proxies (`ACTS_TRUST_PROXY=<n>`), over real HTTP:
 * the address the trusted proxy appended to `X-Forwarded-For` is the one the login limits key on
 * and the audit log records, so a client that writes its own left-most entries cannot escape
 * the limit; without a trusted proxy the header is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedProxyHops } from '../server/api/client-address.ts';
import { passwordOf, rawCall, startTestServer, type TestServer } from './helpers/server.ts';

const csrf = { 'x-acts-csrf': '1' };
const PER_ADDRESS = { max: 3, windowMs: 60_000 };

async function login(t: TestServer, name: string, password: string, forwardedFor?: string) {
  const headers = forwardedFor === undefined ? csrf : { ...csrf, 'x-forwarded-for': forwardedFor };
  const reply = await rawCall(t.url, 'auth.login', { body: { name, password }, headers });
  return { status: reply.status, code: reply.body.error?.data.code ?? 'ok', ip: ((await t.audit.last('auth.login'))?.detail as { ip?: string } | undefined)?.ip };
}

describe('one trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ trustProxy: 1, auth: { loginLimits: { perIp: PER_ADDRESS } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keys the login limit on the address the proxy appended, whatever the client wrote left of it', async () => {
    for (let i = 0; i < PER_ADDRESS.max; i++) {
      const failed = await login(t, `nobody-${i}`, 'wrong password', `10.66.0.${i}, 203.0.113.7`);
      expect(failed).toMatchObject({ code: 'auth.invalid', ip: '203.0.113.7' });
    }
    const spoofed = await login(t, 'alice', passwordOf('alice'), '10.66.1.1, 203.0.113.7');
    expect(spoofed).toMatchObject({ status: 429, code: 'auth.rate_limited' });
    const bare = await login(t, 'alice', passwordOf('alice'), '203.0.113.7');
    expect(bare.code).toBe('auth.rate_limited');
    expect(await login(t, 'alice', passwordOf('alice'), '10.66.1.1, 203.0.113.8')).toMatchObject({ code: 'ok', ip: '203.0.113.8' });
  });

  it('takes the peer address when the proxy sent no header', async () => {
    expect(await login(t, 'bob', passwordOf('bob'))).toMatchObject({ code: 'ok', ip: '127.0.0.1' });
  });
});

describe('two trusted proxies', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ trustProxy: 2 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('skips both proxies from the right; a chain shorter than the hops gives its farthest entry', async () => {
    expect((await login(t, 'bob', passwordOf('bob'), '10.66.0.1, 198.51.100.9, 10.0.0.2')).ip).toBe('198.51.100.9');
    expect((await login(t, 'bob', passwordOf('bob'), '198.51.100.10')).ip).toBe('198.51.100.10');
  });
});

describe('no trusted proxy (the default)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores X-Forwarded-For', async () => {
    expect((await login(t, 'bob', passwordOf('bob'), '198.51.100.9')).ip).toBe('127.0.0.1');
  });
});

describe('ACTS_TRUST_PROXY', () => {
  it('is a hop count: unset, empty or 0 trust none, 1 is one proxy', () => {
    expect([undefined, '', '0', '1', ' 2 ', '100'].map(trustedProxyHops)).toEqual([0, 0, 0, 1, 2, 100]);
  });

  it('refuses anything else with config.invalid and says what to set', () => {
    for (const value of ['yes', 'true', '-1', '1.5', '101']) {
      expect(() => trustedProxyHops(value)).toThrow(expect.objectContaining({ code: 'config.invalid', message: expect.stringContaining('number of reverse proxies') }));
    }
  });
});
