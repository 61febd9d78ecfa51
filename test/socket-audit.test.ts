/**
 * The `audit` room (issue 17 item 10: the audit log refreshes live), over real socket.io on
 * SQLite: only admins may join it; a join says `resync` (read the log again); every audited
 * mutation, refused ones too, sends the room a hint naming its action.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiError, connected, join, SocketLog, startTestServer, type TestServer } from './helpers/server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

it('is for admins only', async () => {
  for (const name of ['viewer', 'operator', 'designer']) {
    const socket = t.socket(name);
    await connected(socket);
    expect(await join(socket, 'audit')).toMatchObject({ ok: false, error: { code: 'auth.forbidden' } });
  }
});

it('tells the admins of each new entry, after a join that asks them to read the log again', async () => {
  const socket = t.socket('admin');
  const log = new SocketLog(socket);
  await connected(socket);
  expect(await join(socket, 'audit')).toEqual({ ok: true, room: 'audit' });
  expect(await log.waitFor('catchup', (p) => p.room === 'audit')).toMatchObject({ resync: true });
  await t.as('designer').models.deploy.mutate({ source: 'id: audited\nsteps:\n  - { id: s1, acts: [ { uses: acts.core.irq } ] }\n' });
  expect(await log.waitFor('audit', (p) => p.action === 'model.deploy', 10_000)).toMatchObject({ cursor: expect.any(Number) });
  await apiError(t.as('operator').processes.abort.mutate({ pid: 'no-such-run' }));
  await log.waitFor('audit', (p) => p.action === 'proc.abort', 10_000);
});
