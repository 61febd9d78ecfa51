/**
 * Open sockets lose what their caller may no longer see, over real socket.io on SQLite: after a
 * token is revoked, a session logged out, a user disabled or a password set, the user's sockets
 * are kicked and disconnected; after an operator is reduced to viewer, their socket leaves the
 * inbox (and keeps the rooms a viewer may read). Each case proves the socket would have received
 * the event by a still-authorised operator's socket that does receive it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Role } from '../server/auth/types.ts';
import { connected, disconnected, join, openSocket, passwordOf, rawCall, SocketLog, startTestServer, type TestServer } from './helpers/server.ts';

const flow = `id: flow
steps:
  - id: a
    acts:
      - { uses: acts.core.irq, key: ask }
`;
const WAIT_MS = 15_000;

let t: TestServer;
/** bob, an operator whose access never changes, in the inbox. */
let witness: SocketLog;

beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: flow });
  const bob = t.socket('bob');
  witness = new SocketLog(bob);
  await connected(bob);
  expect((await join(bob, 'inbox')).ok).toBe(true);
});
afterAll(async () => {
  await t?.close();
});

let serial = 0;
/** A new user with its own API token. */
async function newUser(roles: Role[]): Promise<{ id: string; name: string; token: string }> {
  const name = `user${++serial}`;
  const user = await t.auth.users.create(name, passwordOf(name), roles);
  return { id: user.id, name, token: (await t.auth.tokens.create(user.id, 'socket')).token };
}

/** A connected socket of `auth`, joined to `rooms`, with its event log. */
async function joined(auth: { token?: string; cookie?: string }, rooms: string[]): Promise<{ socket: Socket; log: SocketLog }> {
  const socket = openSocket(t.url, auth.token ? { auth: { token: auth.token } } : { extraHeaders: { cookie: auth.cookie! } });
  const log = new SocketLog(socket);
  await connected(socket);
  for (const room of rooms) expect(await join(socket, room)).toEqual({ ok: true, room });
  return { socket, log };
}

/** Starts a process; resolves once the witness got its inbox item. */
async function startAndWitness(): Promise<string> {
  const { pid } = await t.as('operator').processes.start.mutate({ mid: 'flow' });
  await t.engine.idle();
  await witness.waitFor('inbox', (p) => p.pid === pid && p.change === 'added', WAIT_MS);
  return pid;
}

async function expectKicked(socket: Socket, log: SocketLog): Promise<void> {
  const gone = disconnected(socket);
  expect(await log.waitFor('kicked', () => true, WAIT_MS)).toEqual({ reason: 'access_revoked' });
  await gone;
  expect(socket.connected).toBe(false);
}

const inboxOf = (log: SocketLog, pid: string) => log.of('inbox').filter((p) => p.pid === pid);

describe('credentials that stop resolving disconnect the socket', () => {
  it('a revoked API token', async () => {
    const carol = await newUser(['operator']);
    const { socket, log } = await joined({ token: carol.token }, ['inbox']);
    const [info] = await t.auth.tokens.list(carol.id);
    await t.as('admin').tokens.revoke.mutate({ id: info.id });
    await expectKicked(socket, log);
    const pid = await startAndWitness();
    expect(inboxOf(log, pid)).toEqual([]);
  });

  it('a disabled user', async () => {
    const dan = await newUser(['operator']);
    const { socket, log } = await joined({ token: dan.token }, ['inbox']);
    await t.as('admin').users.setDisabled.mutate({ id: dan.id, disabled: true });
    await expectKicked(socket, log);
    const pid = await startAndWitness();
    expect(inboxOf(log, pid)).toEqual([]);
  });

  it('a logged-out session; a password set by an admin ends the session socket, not the token one', async () => {
    const erin = await newUser(['operator']);
    const signIn = async () => (await rawCall(t.url, 'auth.login', { body: { name: erin.name, password: passwordOf(erin.name) }, headers: { 'x-acts-csrf': '1' } })).setCookie!.split(';')[0];
    const cookie = await signIn();
    const bySession = await joined({ cookie }, ['inbox']);
    await rawCall(t.url, 'auth.logout', { headers: { cookie, 'x-acts-csrf': '1' } });
    await expectKicked(bySession.socket, bySession.log);

    const second = await joined({ cookie: await signIn() }, ['inbox']);
    const byToken = await joined({ token: erin.token }, ['inbox']);
    await t.as('admin').users.setPassword.mutate({ id: erin.id, password: 'a-new-password-for-erin' });
    await expectKicked(second.socket, second.log);
    const pid = await startAndWitness();
    await byToken.log.waitFor('inbox', (p) => p.pid === pid && p.change === 'added', WAIT_MS);
    expect(inboxOf(second.log, pid)).toEqual([]);
    byToken.socket.disconnect();
  });
});

describe('a role change', () => {
  it('an operator reduced to viewer leaves the inbox and keeps reading process rooms', async () => {
    const fay = await newUser(['operator']);
    const before = await startAndWitness();
    const { socket, log } = await joined({ token: fay.token }, ['inbox', `proc:${before}`]);
    await t.as('admin').users.setRoles.mutate({ id: fay.id, roles: ['viewer'] });
    expect(await log.waitFor('left', () => true, WAIT_MS)).toEqual({ room: 'inbox', reason: 'access_changed' });
    expect(socket.connected).toBe(true);

    const pid = await startAndWitness();
    await t.as('operator').processes.abort.mutate({ pid: before });
    await log.waitFor('process', (p) => p.pid === before && p.change === 'aborted', WAIT_MS); // still in the process room
    await join(socket, 'health'); // anything sent to fay before this reply came before it
    await log.waitFor('catchup', (p) => p.room === 'health', WAIT_MS);
    expect(inboxOf(log, pid)).toEqual([]);
    expect(await join(socket, 'inbox')).toMatchObject({ ok: false, error: { code: 'auth.forbidden' } });
    socket.disconnect();
  });

  it('an admin reduced to operator leaves the inbox (its rooms changed) and may join it again', async () => {
    const gus = await newUser(['admin']);
    const { socket, log } = await joined({ token: gus.token }, ['inbox']);
    await t.as('admin').users.setRoles.mutate({ id: gus.id, roles: ['operator'] });
    expect(await log.waitFor('left', () => true, WAIT_MS)).toEqual({ room: 'inbox', reason: 'access_changed' });
    expect((await join(socket, 'inbox')).ok).toBe(true);
    const pid = await startAndWitness();
    await log.waitFor('inbox', (p) => p.pid === pid && p.change === 'added', WAIT_MS);
    socket.disconnect();
  });
});

describe('an expired session', () => {
  it('disconnects its socket once the sweep deleted it, without any other change', { timeout: 60_000 }, async () => {
    const short = await startTestServer({ auth: { sessionTtlMs: 1500 }, sessionSweepMs: 200 });
    try {
      const user = await short.auth.users.create('gus', passwordOf('gus'), ['operator']);
      const login = await rawCall(short.url, 'auth.login', { body: { name: user.name, password: passwordOf(user.name) }, headers: { 'x-acts-csrf': '1' } });
      const socket = openSocket(short.url, { extraHeaders: { cookie: login.setCookie!.split(';')[0] } });
      const log = new SocketLog(socket);
      await connected(socket);
      expect(await join(socket, 'inbox')).toEqual({ ok: true, room: 'inbox' });
      await expectKicked(socket, log);
    } finally {
      await short.close();
    }
  });
});
