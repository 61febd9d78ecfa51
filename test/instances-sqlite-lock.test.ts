/**
 * SQLite's single-engine rule rests on the engine lock (server/store/engine-lock.ts), not on
 * whether the pid an instance row names is alive: a real server killed with SIGKILL is restarted
 * on the same file while its row names a live process (PID 1, as in a container; the test's own
 * pid, as after PID reuse), and two live servers on one file are still refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { ServerProcess } from './helpers/server-process.ts';

const databases: TestDatabase[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
  for (const db of databases) await db.drop();
});

function server(url: string): ServerProcess {
  const s = new ServerProcess(url);
  servers.push(s);
  return s;
}

/** Makes every instance row name `pid` (a process that exists) with a lease an hour long. */
async function pretendAlive(url: string, pid: number): Promise<void> {
  const store = await openStore(url);
  try {
    for (const row of (await store.instances.query()).rows) await store.instances.update({ ...row, pid, lease_until: Date.now() + 3_600_000 });
  } finally {
    await store.close();
  }
}

describe('SQLite engine lock', () => {
  it('restarts after a SIGKILL although the dead instance’s pid is alive; still refuses a second live server', async () => {
    const db = await createTestDatabase('sqlite');
    databases.push(db);
    const first = await server(db.url).start();
    await first.kill();
    await pretendAlive(db.url, 1); // PID 1: the restarted container's server has it again

    const second = await server(db.url).start();
    expect(await second.client().health.get.query()).toMatchObject({ instance: expect.any(String) });

    const third = server(db.url);
    await expect(third.start()).rejects.toThrow(/this SQLite database is in use by engine instance \S+ \(pid \d+ on host .+\); SQLite supports one engine at a time/);
    expect(await third.exited).toBe(1);
    const store = await openStore(db.url);
    const refused = await Engine.create({ store, autoTick: false }).catch((err: unknown) => err);
    await store.close();
    expect(refused).toMatchObject({ code: 'config.invalid' });

    await second.kill();
    await pretendAlive(db.url, process.pid); // PID reuse: this very process has the dead server's pid
    const engine = await Engine.create({ store: await openStore(db.url), autoTick: false, instanceId: 'after-reuse' });
    try {
      expect((await engine.instances()).map((row) => row.id)).toEqual(['after-reuse']);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
