/**
 * Live events over real socket.io on SQLite: authentication and room permissions, every task
 * state change in order, process events, catch-up from a cursor (reconnect and page-load race),
 * the inbox filtered per caller, capped payloads, health, leaving rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, join, SocketLog, startTestServer, type TestServer } from './helpers/server.ts';

const flow = `id: flow
name: Flow
steps:
  - id: a
    acts:
      - { uses: acts.core.irq, key: a1 }
      - { uses: acts.core.irq, key: a2 }
  - id: b
    acts:
      - { uses: acts.core.irq, key: b1, params: { assignees: [alice] } }
`;

let t: TestServer;

async function start(inputs = {}): Promise<string> {
  const { pid } = await t.as('operator').processes.start.mutate({ mid: 'flow', inputs });
  await t.engine.idle();
  return pid;
}

async function openTid(pid: string, key: string): Promise<string> {
  const tasks = await t.engine.tasks.list(pid);
  const task = tasks.find((x) => x.key === key && x.state === 'interrupted');
  if (!task) throw new Error(`no open '${key}'`);
  return task.tid;
}

async function act(pid: string, key: string, as = 'admin'): Promise<void> {
  await t.as(as).tasks.complete.mutate({ pid, tid: await openTid(pid, key) });
  await t.engine.idle();
}

/** A viewer's socket in `room`, recording from before it joined. */
async function viewerIn(room: string): Promise<SocketLog> {
  const log = new SocketLog(t.socket('viewer'));
  await connected(log.socket);
  expect((await join(log.socket, room)).ok).toBe(true);
  return log;
}

/** Current task states by tid, as the engine has them. */
async function truth(pid: string): Promise<Record<string, string>> {
  return Object.fromEntries((await t.engine.tasks.list(pid)).map((x) => [x.tid, x.state]));
}

/** Task states by tid as a client sees them: catch-up snapshots and live events applied in order. */
function seen(log: SocketLog, pid: string): Record<string, string> {
  const states: Record<string, string> = {};
  for (const e of log.events) {
    if (e.name === 'catchup' && e.payload.room === `proc:${pid}`) for (const x of (e.payload.tasks as Array<{ tid: string; state: string }>) ?? []) states[x.tid] = x.state;
    if (e.name === 'task' && e.payload.pid === pid) states[e.payload.tid as string] = e.payload.state as string;
  }
  return states;
}

beforeAll(async () => {
  t = await startTestServer({ live: { healthIntervalMs: 100 } });
  await t.as('designer').models.deploy.mutate({ source: flow });
});
afterAll(async () => {
  await t?.close();
});

describe('connection and rooms', () => {
  it('refuses a connection without valid credentials, with the code', async () => {
    await expect(connected(t.socket('anon'))).rejects.toMatchObject({ code: 'auth.required' });
    await expect(connected(t.socket('nobody'))).rejects.toMatchObject({ code: 'auth.required' });
  });

  it('checks the role per room, the room name and the process', async () => {
    const viewer = t.socket('viewer');
    await connected(viewer);
    expect(await join(viewer, 'inbox')).toMatchObject({ ok: false, error: { code: 'auth.forbidden' } });
    expect(await join(viewer, 'nonsense')).toMatchObject({ ok: false, error: { code: 'input.invalid' } });
    expect(await join(viewer, 'proc:missing')).toMatchObject({ ok: false, error: { code: 'process.not_found' } });
    expect((await viewer.timeout(5000).emitWithAck('join', { room: 42 })) as object).toMatchObject({ ok: false, error: { code: 'input.invalid' } });
    expect(await join(viewer, 'health')).toEqual({ ok: true, room: 'health' });
  });
});

describe('a process room', () => {
  it('sees every task state change in order, then the process completing', async () => {
    const pid = await start();
    const recorded: string[] = [];
    const off = t.engine.on('task', ({ task }) => {
      if (task.pid === pid) recorded.push(`${task.tid}:${task.state}`);
    });
    const socket = t.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    expect(await join(socket, `proc:${pid}`)).toEqual({ ok: true, room: `proc:${pid}` });
    const snapshot = await log.waitFor('catchup');
    expect((snapshot.tasks as unknown[]).length).toBe(Object.keys(await truth(pid)).length);
    await act(pid, 'a1');
    await act(pid, 'a2');
    await act(pid, 'b1', 'alice');
    await log.waitFor('process', (p) => p.change === 'completed');
    off();
    const live = log.of('task').map((p) => `${p.tid}:${p.state}`);
    expect(live).toEqual(recorded);
    expect(live.length).toBeGreaterThan(8);
    const cursors = log.events.map((e) => Number(e.payload.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    const a1 = log.of('task').find((p) => p.key === 'a1' && p.state === 'completed');
    expect(a1).toMatchObject({ pid, kind: 'act', nid: expect.any(String), uses: 'acts.core.irq', cursor: expect.any(Number) });
    expect(log.of('message').some((m) => m.key === 'b1' && m.state === 'completed')).toBe(true);
    expect(seen(log, pid)).toEqual(await truth(pid));
  });

  it('a model room gets process events', async () => {
    const socket = t.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    expect((await join(socket, 'model:flow')).ok).toBe(true);
    const pid = await start();
    expect(await log.waitFor('process', (p) => p.pid === pid)).toMatchObject({ change: 'started', mid: 'flow' });
    await t.as('operator').processes.abort.mutate({ pid });
    expect(await log.waitFor('process', (p) => p.pid === pid && p.change !== 'started')).toMatchObject({ change: 'aborted' });
  });

  it('control changes are live events; the task a breakpoint stopped before comes first, in its state', async () => {
    const pid = await start();
    const log = await viewerIn(`proc:${pid}`);
    await log.waitFor('catchup');
    await t.as('operator').control.setBreakpoints.mutate({ pid, nodes: ['b'] });
    expect(await log.waitFor('control', (p) => p.pid === pid)).toMatchObject({ control: { breakpoints: ['b'], paused: null } });
    await act(pid, 'a1');
    await act(pid, 'a2');
    const paused = await log.waitFor('control', (p) => (p.control as { paused: unknown }).paused !== null);
    const tid = (paused.control as { paused: { tid: string } }).paused.tid;
    const held = log.events.findIndex((e) => e.name === 'task' && e.payload.tid === tid);
    expect(log.events[held]?.payload).toMatchObject({ nid: 'b', state: 'none' });
    expect(held).toBeLessThan(log.events.findIndex((e) => e.name === 'control' && (e.payload.control as { paused: unknown }).paused !== null));
    await t.as('operator').control.resume.mutate({ pid });
    await log.waitFor('task', (p) => p.key === 'b1' && p.state === 'interrupted');
  });

  it('each message comes right after the task change that made it (one route: the engine event map)', async () => {
    const pid = await start();
    const log = await viewerIn(`proc:${pid}`);
    await log.waitFor('catchup');
    await act(pid, 'a1');
    await act(pid, 'a2');
    await log.waitFor('task', (p) => p.key === 'b1' && p.state === 'interrupted');
    const live = log.events.filter((e) => e.name === 'task' || e.name === 'message');
    const messages = live.flatMap((e, i) => (e.name === 'message' ? [i] : []));
    expect(messages.length).toBeGreaterThan(3);
    for (const i of messages) expect(live[i - 1]).toMatchObject({ name: 'task', payload: { pid, tid: live[i].payload.tid } });
    // no engine channel carries them any more
    expect(t.engine.unsub(`live-${t.engine.instanceId}`)).toBe(false);
  });

  it('a slow channel handler of the same process does not hold its socket events back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = t.engine.channel({ id: 'slow' }).onMessage(() => gate);
    try {
      const log = await viewerIn('model:flow');
      const { pid } = await t.as('operator').processes.start.mutate({ mid: 'flow' });
      expect(await log.waitFor('process', (p) => p.pid === pid)).toMatchObject({ change: 'started', state: 'created' });
    } finally {
      release();
      slow.close();
    }
    await t.engine.idle();
  });

  it('reconnect catch-up: a client that was away gets every task state and message it missed', async () => {
    const pid = await start();
    const first = t.socket('viewer');
    const log1 = new SocketLog(first);
    await connected(first);
    await join(first, `proc:${pid}`);
    await act(pid, 'a1');
    await log1.waitFor('task', (p) => p.key === 'a2' && p.state === 'interrupted');
    const cursor = log1.cursor;
    first.disconnect();
    const missed = await t.engine.messages.list({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] } });
    await act(pid, 'a2');
    const after = await t.engine.messages.list({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] } });
    const gapIds = after.rows.map((m) => m.id).filter((id) => !missed.rows.some((m) => m.id === id));
    expect(gapIds.length).toBeGreaterThan(0);

    const second = t.socket('viewer');
    const log2 = new SocketLog(second);
    await connected(second);
    await join(second, `proc:${pid}`, cursor);
    await log2.waitFor('catchup', (p) => Array.isArray(p.tasks));
    const messages = await log2.waitFor('catchup', (p) => Array.isArray(p.messages));
    const merged = { ...seen(log1, pid), ...seen(log2, pid) };
    expect(merged).toEqual(await truth(pid));
    const got = (messages.messages as Array<{ id: string }>).map((m) => m.id);
    for (const id of gapIds) expect(got).toContain(id);
  });

  it('page load then join: changes between the read and the join are caught up from the read cursor', async () => {
    const pid = await start();
    const page = await t.as('viewer').processes.get.query({ pid });
    await act(pid, 'a1');
    const socket = t.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    await join(socket, `proc:${pid}`, page.cursor);
    await log.waitFor('catchup', (p) => Array.isArray(p.tasks));
    const fromPage = Object.fromEntries(page.tasks.map((x) => [x.tid, x.state]));
    expect({ ...fromPage, ...seen(log, pid) }).toEqual(await truth(pid));
  });

  it('caps payloads: large variables are truncated, every event stays small', async () => {
    const pid = await start({ blob: 'x'.repeat(20_000) });
    const socket = t.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    await join(socket, `proc:${pid}`);
    await t.as('operator').processes.abort.mutate({ pid });
    const done = await log.waitFor('process', (p) => p.change === 'aborted');
    expect(JSON.stringify(done).length).toBeLessThan(8000);
    const messages = log.of('message');
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(JSON.stringify(m).length).toBeLessThan(8000);
    expect(messages.some((m) => (m.inputs as { $truncated?: boolean }).$truncated === true)).toBe(true);
  });

  it('after leave, no more events from that room', async () => {
    const pid = await start();
    const socket = t.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    await join(socket, `proc:${pid}`);
    expect(await socket.timeout(5000).emitWithAck('leave', { room: `proc:${pid}` })).toEqual({ ok: true, room: `proc:${pid}` });
    const before = log.of('task').length;
    await act(pid, 'a1');
    await join(socket, 'health');
    await log.waitFor('catchup', (p) => p.room === 'health');
    expect(log.of('task').length).toBe(before);
  });
});

describe('inbox and health rooms', () => {
  it('each operator gets only the inbox tasks they may act on, as they come and go', async () => {
    const alice = t.socket('alice');
    const bob = t.socket('bob');
    const aliceLog = new SocketLog(alice);
    const bobLog = new SocketLog(bob);
    await Promise.all([connected(alice), connected(bob)]);
    const pid = await start();
    expect((await join(alice, 'inbox')).ok).toBe(true);
    expect((await join(bob, 'inbox')).ok).toBe(true);
    const snapshot = await aliceLog.waitFor('catchup', (p) => p.room === 'inbox');
    expect((snapshot.inbox as Array<{ pid: string; key: string }>).filter((i) => i.pid === pid).map((i) => i.key)).toEqual(['a1']);
    await act(pid, 'a1');
    await act(pid, 'a2');
    const added = await aliceLog.waitFor('inbox', (p) => p.pid === pid && p.change === 'added' && (p.item as { key: string }).key === 'b1');
    expect(added.item).toMatchObject({ assignment: { assignees: ['alice'], roles: [] } });
    await act(pid, 'b1', 'alice');
    await aliceLog.waitFor('inbox', (p) => p.pid === pid && p.change === 'removed' && p.tid === (added as { tid: string }).tid);
    const bobKeys = bobLog.of('inbox').filter((p) => p.pid === pid && p.change === 'added').map((p) => (p.item as { key: string }).key);
    expect(bobKeys).toEqual(['a2']);
  });

  it('the health room gets the current health on join and then a feed', async () => {
    const socket = t.socket('viewer');
    const log = new SocketLog(socket);
    await connected(socket);
    await join(socket, 'health');
    expect((await log.waitFor('catchup', (p) => p.room === 'health')).health).toMatchObject({ instance: t.engine.instanceId, loops: expect.any(Array) });
    expect(await log.waitFor('health')).toMatchObject({ instance: t.engine.instanceId, writer: { depth: 0 } });
  });
});
