/**
 * An interrupt that can no longer matter leaves the inbox live (issue 9): `back` out of one
 * parallel branch closes the sibling branch's interrupt, and every operator's inbox hears it go,
 * over real socket.io against a real server on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, join, SocketLog, startTestServer, type TestServer } from './helpers/server.ts';

const model = `id: review
steps:
  - id: draft
    acts: [ { id: write, uses: acts.core.irq } ]
  - id: checks
    branches:
      - { id: legal, if: "true", steps: [ { id: l1, acts: [ { id: legal_ok, uses: acts.core.irq } ] } ] }
      - { id: finance, if: "true", steps: [ { id: f1, acts: [ { id: finance_ok, uses: acts.core.irq } ] } ] }
`;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: model });
});
afterAll(async () => {
  await t?.close();
});

async function openTask(pid: string, key: string): Promise<string> {
  const task = (await t.engine.tasks.list(pid)).find((x) => x.key === key && x.state === 'interrupted');
  if (!task) throw new Error(`no open '${key}'`);
  return task.tid;
}

describe('the inbox', () => {
  it('drops the sibling branch interrupt that a back out of the other branch left behind', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'review', inputs: {} });
    await t.engine.idle();
    await t.as('operator').tasks.complete.mutate({ pid, tid: await openTask(pid, 'write') });
    await t.engine.idle();
    const socket = t.socket('operator');
    const log = new SocketLog(socket);
    await connected(socket);
    expect((await join(socket, 'inbox')).ok).toBe(true);
    const snapshot = await log.waitFor('catchup', (p) => p.room === 'inbox');
    const open = (snapshot.inbox as Array<{ pid: string; key: string; tid: string }>).filter((i) => i.pid === pid);
    expect(open.map((i) => i.key).sort()).toEqual(['finance_ok', 'legal_ok']);
    const finance = open.find((i) => i.key === 'finance_ok')!.tid;

    await t.as('operator').tasks.back.mutate({ pid, tid: await openTask(pid, 'legal_ok'), options: { to: 'draft' } });
    await t.engine.idle();

    await log.waitFor('inbox', (p) => p.pid === pid && p.change === 'removed' && p.tid === finance);
    const states = (await t.engine.tasks.list(pid)).filter((x) => x.key === 'finance_ok').map((x) => x.state);
    expect(states).toEqual(['skipped']);
    // only the restarted draft is waiting now
    const waiting = (await t.as('operator').inbox.list.query({})).rows.filter((i) => i.pid === pid).map((i) => i.key);
    expect(waiting).toEqual(['write']);
  });
});
