/**
 * Scale-out on PostgreSQL: two server instances on one database, joined by the socket.io
 * PostgreSQL adapter. A client of instance B sees the live events of a process that runs on
 * instance A, and catches up on B from the store; the API works the same on PostgreSQL; a token
 * revoked through A disconnects its socket on B (the access change is relayed); the health room on
 * B hears both instances. A lone instance
 * publishes no live event over NOTIFY until another one announced itself.
 */
import pg from 'pg';
import { MessageType } from 'socket.io-adapter';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { connected, disconnected, join, openSocket, SocketLog, startTestServer, useTwoServersOnPostgres, type TestServer } from './helpers/server.ts';

const flow = `id: flow
steps:
  - id: a
    acts:
      - { uses: acts.core.irq, key: a1, params: { assignees: [alice] } }
  - id: b
    acts:
      - { uses: acts.core.irq, key: b1 }
`;

let a: TestServer;
let b: TestServer;

useTwoServersOnPostgres(
  async (pair) => {
    ({ a, b } = pair);
    await a.as('designer').models.deploy.mutate({ source: flow });
  },
  { live: { healthIntervalMs: 200 } },
);

async function complete(key: string, pid: string, as: string): Promise<void> {
  const task = (await a.engine.tasks.list(pid)).find((x) => x.key === key && x.state === 'interrupted')!;
  await a.as(as).tasks.complete.mutate({ pid, tid: task.tid });
  await a.engine.idle();
}

describe('two instances on PostgreSQL', () => {
  it('a client of B sees the task events of a process running on A, in order, and the inbox', async () => {
    const socket = b.socket('alice');
    const log = new SocketLog(socket);
    await connected(socket);
    expect((await join(socket, 'inbox')).ok).toBe(true);
    const { pid } = await a.as('operator').processes.start.mutate({ mid: 'flow' });
    await a.engine.idle();
    expect((await join(socket, `proc:${pid}`)).ok).toBe(true);
    await log.waitFor('inbox', (p) => p.pid === pid && p.change === 'added');
    const recorded: string[] = [];
    const off = a.engine.on('task', ({ task }) => void (task.pid === pid && recorded.push(`${task.tid}:${task.state}`)));
    await complete('a1', pid, 'alice');
    await complete('b1', pid, 'operator');
    await log.waitFor('process', (p) => p.pid === pid && p.change === 'completed');
    off();
    await log.waitFor('task', (p) => p.pid === pid && p.tid === '$' && p.state === 'completed');
    // events A broadcast just before the join may still arrive (NOTIFY latency), in order, before these
    const live = log.of('task').filter((p) => p.pid === pid).map((p) => `${p.tid}:${p.state}`);
    expect(live.slice(live.length - recorded.length)).toEqual(recorded);
    expect(log.of('inbox').some((p) => p.pid === pid && p.change === 'removed')).toBe(true);
  });

  it("a client of B in the health room gets every instance's health: A sends its own though no socket of A listens", async () => {
    const socket = b.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    expect((await join(socket, 'health')).ok).toBe(true);
    expect(await log.waitFor('health', (p) => p.instance === a.engine.instanceId)).toMatchObject({ writer: { depth: expect.any(Number) } });
    await log.waitFor('health', (p) => p.instance === b.engine.instanceId);
    socket.disconnect();
  });

  it('catch-up on B reads what A wrote; the API lists the same on both instances', async () => {
    const { pid } = await a.as('operator').processes.start.mutate({ mid: 'flow' });
    await a.engine.idle();
    const page = await b.as('viewer').processes.get.query({ pid });
    await complete('a1', pid, 'alice');
    const socket = b.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    await join(socket, `proc:${pid}`, page.cursor);
    const catchup = await log.waitFor('catchup', (p) => Array.isArray(p.tasks));
    const seen = { ...Object.fromEntries(page.tasks.map((x) => [x.tid, x.state])), ...Object.fromEntries((catchup.tasks as Array<{ tid: string; state: string }>).map((x) => [x.tid, x.state])) };
    expect(seen).toEqual(Object.fromEntries((await a.engine.tasks.list(pid)).map((x) => [x.tid, x.state])));
    expect((await b.as('alice').inbox.list.query({})).rows.filter((i) => i.pid === pid).map((i) => i.key)).toEqual(['b1']);
    expect((await b.as('operator').inbox.list.query({})).rows.filter((i) => i.pid === pid).map((i) => i.key)).toEqual(['b1']);
    expect((await b.as('viewer').processes.list.query({ mid: 'flow' })).count).toBe((await a.as('viewer').processes.list.query({ mid: 'flow' })).count);
  });

  it('revoking a token on A disconnects its socket on B, while another client of B still gets the inbox', async () => {
    const user = await a.auth.users.create('carol', 'pw-carol-secret', ['operator']);
    const { info, token } = await a.auth.tokens.create(user.id, 'socket on b');
    const carol = openSocket(b.url, { auth: { token } });
    const carolLog = new SocketLog(carol);
    const bob = b.socket('bob');
    const bobLog = new SocketLog(bob);
    await Promise.all([connected(carol), connected(bob)]);
    expect((await join(carol, 'inbox')).ok).toBe(true);
    expect((await join(bob, 'inbox')).ok).toBe(true);
    const gone = disconnected(carol);
    await a.as('admin').tokens.revoke.mutate({ id: info.id });
    expect(await carolLog.waitFor('kicked', () => true, 15_000)).toEqual({ reason: 'access_revoked' });
    await gone;
    const { pid } = await a.as('operator').processes.start.mutate({ mid: 'flow' });
    await a.engine.idle();
    await complete('a1', pid, 'alice');
    await bobLog.waitFor('inbox', (p) => p.pid === pid && p.change === 'added' && (p.item as { key: string }).key === 'b1', 15_000);
    expect(carolLog.of('inbox').filter((p) => p.pid === pid)).toEqual([]);
  });
});

describe('a lone instance on PostgreSQL', () => {
  it('publishes no live event over NOTIFY until another instance announced itself, then every one', async () => {
    const lone = await createTestDatabase('postgresql');
    const listener = new pg.Client({ connectionString: lone.url });
    const seen: Array<{ uid: string; type: number }> = [];
    let l: TestServer | undefined;
    let m: TestServer | undefined;
    try {
      await listener.connect();
      listener.on('notification', (n) => seen.push(JSON.parse(n.payload ?? '{}') as { uid: string; type: number }));
      await listener.query('LISTEN "acts_live#/"');
      l = await startTestServer({ database: lone, scaleOutUrl: lone.url });
      await l.as('designer').models.deploy.mutate({ source: flow });
      const { pid } = await l.as('operator').processes.start.mutate({ mid: 'flow' });
      await l.engine.idle();
      const task = (await l.engine.tasks.list(pid)).find((x) => x.key === 'a1' && x.state === 'interrupted')!;
      await l.as('alice').tasks.complete.mutate({ pid, tid: task.tid });
      await l.engine.idle();
      // the second instance's announcement is published after every broadcast the first one made
      m = await startTestServer({ database: lone, scaleOutUrl: lone.url });
      await eventually(() => seen.some((msg) => msg.type === MessageType.INITIAL_HEARTBEAT && seen.some((other) => other.uid !== msg.uid)), 'both instances were heard', 500);
      expect(seen.filter((msg) => msg.type === MessageType.BROADCAST)).toEqual([]);
      const next = (await l.engine.tasks.list(pid)).find((x) => x.key === 'b1' && x.state === 'interrupted')!;
      await l.as('operator').tasks.complete.mutate({ pid, tid: next.tid });
      await eventually(() => seen.some((msg) => msg.type === MessageType.BROADCAST), 'a broadcast goes to the other instance', 500);
    } finally {
      await listener.end();
      await m?.close();
      await l?.close();
      await lone.drop();
    }
  }, 60_000);
});
