/**
 * Presence in the designer (issue 17 item 1), over real socket.io: designers who join
 * `design:<mid>` each hear who has the model open (distinct names), again whenever someone joins,
 * leaves or disconnects; people who may not design cannot join. On SQLite (one server) and on
 * PostgreSQL across two instances joined by the adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { connected, join, SocketLog, startTestServer, USERS, type TestServer } from './helpers/server.ts';

const WAIT_MS = 10_000;
const USERS_WITH_ANA = { ...USERS, ana: ['designer' as const] };
const ROOM = 'design:shared';

const names = (p: Record<string, unknown>) => (p.editors as Array<{ name: string }>).map((e) => e.name);
const hears = (log: SocketLog, expected: string[]) => log.waitFor('presence', (p) => p.room === ROOM && JSON.stringify(names(p)) === JSON.stringify(expected), WAIT_MS);

async function opened(server: TestServer, name: string): Promise<{ socket: Socket; log: SocketLog }> {
  const socket = server.socket(name);
  const log = new SocketLog(socket);
  await connected(socket);
  return { socket, log };
}

describe('presence on one server (SQLite)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ users: USERS_WITH_ANA });
  });
  afterAll(() => t?.close());

  it('tells each designer in the room who else is there, on every join, leave and disconnect', async () => {
    const designer = await opened(t, 'designer');
    expect(await join(designer.socket, ROOM)).toEqual({ ok: true, room: ROOM });
    await hears(designer.log, ['designer']);

    const ana = await opened(t, 'ana');
    expect((await join(ana.socket, ROOM)).ok).toBe(true);
    await hears(ana.log, ['ana', 'designer']);
    await hears(designer.log, ['ana', 'designer']);

    // a second tab of the same user is one name
    const anaAgain = await opened(t, 'ana');
    expect((await join(anaAgain.socket, ROOM)).ok).toBe(true);
    await hears(anaAgain.log, ['ana', 'designer']);

    await anaAgain.socket.timeout(5000).emitWithAck('leave', { room: ROOM });
    ana.socket.disconnect();
    designer.log.events.length = 0;
    await hears(designer.log, ['designer']);
    designer.socket.disconnect();
  });

  it('is for people who may design', async () => {
    const viewer = await opened(t, 'viewer');
    expect(await join(viewer.socket, ROOM)).toMatchObject({ ok: false, error: { code: 'auth.forbidden' } });
    viewer.socket.disconnect();
  });
});

describe('presence across two instances (PostgreSQL)', () => {
  let db: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    a = await startTestServer({ database: db, scaleOutUrl: db.url, users: USERS_WITH_ANA });
    b = await startTestServer({ database: db, scaleOutUrl: db.url, users: USERS_WITH_ANA });
    // fetchSockets asks the instances an adapter has heard of: wait until each has heard the other
    const knowsOther = (s: TestServer) => (s.server.live.io.of('/').adapter as unknown as { nodesMap: Map<string, number> }).nodesMap.size > 0;
    await eventually(() => knowsOther(a) && knowsOther(b), 'both instances heard each other', 1000);
  }, 30_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await db?.drop();
  });

  it('a designer on instance A and one on instance B see each other', async () => {
    const designer = await opened(a, 'designer');
    expect((await join(designer.socket, ROOM)).ok).toBe(true);
    await hears(designer.log, ['designer']);
    const ana = await opened(b, 'ana');
    expect((await join(ana.socket, ROOM)).ok).toBe(true);
    await hears(ana.log, ['ana', 'designer']);
    await hears(designer.log, ['ana', 'designer']);
    ana.socket.disconnect();
    designer.log.events.length = 0;
    await hears(designer.log, ['designer']);
    designer.socket.disconnect();
  });
});
