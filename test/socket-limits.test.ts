/**
 * socket.io limits and cookie sockets on SQLite: a slow client is disconnected instead of
 * buffered without bound (and catches up from its cursor); a cookie-authenticated socket must
 * come from the server's own origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, join, openSocket, passwordOf, SocketLog, startTestServer, type TestServer } from './helpers/server.ts';

const flow = `id: burst
steps:
  - id: a
    acts:
      - { uses: acts.core.irq, key: a1 }
  - id: b
    acts:
      - { uses: acts.core.irq, key: b1 }
      - { uses: acts.core.irq, key: b2 }
      - { uses: acts.core.irq, key: b3 }
`;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ live: { maxBufferedPackets: 3 } });
  await t.as('designer').models.deploy.mutate({ source: flow });
});
afterAll(async () => {
  await t?.close();
});

describe('a slow client', () => {
  /**
   * A client that stops reading: it speaks engine.io long-polling by hand, joins a room, and then
   * never polls again, so everything for it stays in the server's write buffer.
   */
  async function stalledClient(room: string): Promise<string> {
    const base = `${t.url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(base)).text();
    const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
    const post = (body: string) => fetch(`${base}&sid=${sid}`, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    await post(`40${JSON.stringify({ token: t.tokens.viewer })}`);
    expect(await (await fetch(`${base}&sid=${sid}`)).text()).toMatch(/^40/);
    await post(`420${JSON.stringify(['join', { room }])}`);
    expect(await (await fetch(`${base}&sid=${sid}`)).text()).toContain('catchup');
    return sid;
  }

  it('is disconnected once its write buffer passes the bound; a new connection catches up from its cursor', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'burst' });
    const cursor = (await t.as('viewer').processes.get.query({ pid })).cursor;
    await t.engine.idle();
    await stalledClient(`proc:${pid}`);
    const a1 = (await t.engine.tasks.list(pid)).find((x) => x.key === 'a1')!;
    await t.as('operator').tasks.complete.mutate({ pid, tid: a1.tid });
    await t.engine.idle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.server.live.backpressure.kicked).toBe(1);
    expect(t.server.live.io.of('/').sockets.size).toBe(0);

    const again = t.socket('viewer');
    const log = new SocketLog(again);
    await connected(again);
    await join(again, `proc:${pid}`, cursor);
    const catchup = await log.waitFor('catchup', (p) => Array.isArray(p.tasks));
    const states = Object.fromEntries((catchup.tasks as Array<{ tid: string; state: string }>).map((x) => [x.tid, x.state]));
    const truth = Object.fromEntries((await t.engine.tasks.list(pid)).map((x) => [x.tid, x.state]));
    expect(states).toEqual(truth);
  });
});

describe('cookie-authenticated sockets', () => {
  async function cookieOf(name: string): Promise<string> {
    const res = await fetch(`${t.url}/api/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-acts-csrf': '1' }, body: JSON.stringify({ name, password: passwordOf(name) }) });
    return res.headers.get('set-cookie')!.split(';')[0];
  }

  it('connect from the same origin; another site is refused', async () => {
    const cookie = await cookieOf('alice');
    const host = new URL(t.url).host;
    const same = openSocket(t.url, { extraHeaders: { cookie, origin: `http://${host}` } });
    const evil = openSocket(t.url, { extraHeaders: { cookie, origin: 'http://evil.example' } });
    try {
      await connected(same);
      expect((await join(same, 'inbox')).ok).toBe(true);
      await expect(connected(evil)).rejects.toMatchObject({ code: 'auth.forbidden' });
    } finally {
      same.disconnect();
      evil.disconnect();
    }
  });
});
