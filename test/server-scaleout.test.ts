/**
 * Scale-out with two real server processes (`server/main.ts`) on one PostgreSQL database: a
 * process started on A runs on A; an action sent to B for it is relayed to A and applied once;
 * a socket.io client of B sees every task change live (the PostgreSQL adapter carries A's events).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { joinRoom, ServerProcess } from './helpers/server-process.ts';

const FLOW = `id: chain
steps:
  - { id: first, acts: [ { uses: acts.core.irq, key: one } ] }
  - { id: second, acts: [ { uses: acts.core.irq, key: two } ] }
`;

let db: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  db = await createTestDatabase('postgresql');
  a = await new ServerProcess(db.url, { ACTS_TICK_INTERVAL_SECS: '1' }).start();
  b = await new ServerProcess(db.url, { ACTS_TICK_INTERVAL_SECS: '1' }).start();
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

interface TaskEvent {
  pid: string;
  tid: string;
  key: string;
  state: string;
}

/** Task states of one process as a client sees them: the join's catch-up, then live events. */
function taskEvents(socket: Socket, pid: string): TaskEvent[] {
  const seen: TaskEvent[] = [];
  socket.on('catchup', (c: { room: string; tasks?: TaskEvent[] }) => void (c.room === `proc:${pid}` && seen.push(...(c.tasks ?? []))));
  socket.on('task', (e: TaskEvent) => void (e.pid === pid && seen.push(e)));
  return seen;
}

describe('two server processes on one PostgreSQL database', () => {
  it('an action sent to B for a process running on A is applied once, and a client of B sees it live', { timeout: 60_000 }, async () => {
    const apiA = a.client();
    const apiB = b.client();
    await apiA.models.deploy.mutate({ source: FLOW });
    const { pid } = await apiA.processes.start.mutate({ mid: 'chain' });

    const socket = await b.socket();
    const events = taskEvents(socket, pid);
    expect((await joinRoom(socket, `proc:${pid}`)).ok).toBe(true);
    const one = await eventually(() => events.find((e) => e.key === 'one' && e.state === 'interrupted'), 'act one to wait (catch-up or live)', 250);

    await apiB.tasks.complete.mutate({ pid, tid: one.tid, options: { ok: true } });
    await eventually(() => events.find((e) => e.tid === one.tid && e.state === 'completed'), 'act one completed, seen on B', 250);
    const two = await eventually(() => events.find((e) => e.key === 'two' && e.state === 'interrupted'), 'act two waiting, seen on B', 250);

    // the same action again, through A this time: refused, nothing changes
    await expect(apiA.tasks.complete.mutate({ pid, tid: one.tid })).rejects.toMatchObject({ data: { code: 'action.refused' } });

    await apiB.tasks.complete.mutate({ pid, tid: two.tid });
    await eventually(() => events.find((e) => e.tid === '$' && e.state === 'completed'), 'the process completed, seen on B', 250);
    const detail = await apiB.processes.get.query({ pid });
    expect(detail.process.state).toBe('completed');
    expect(detail.tasks.filter((t) => t.kind === 'act').map((t) => [t.key, t.state])).toEqual([
      ['one', 'completed'],
      ['two', 'completed'],
    ]);
    socket.close();
  });
});
