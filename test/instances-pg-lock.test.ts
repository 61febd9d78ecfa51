/**
 * The PostgreSQL instance lock (server/store/pg-instance-lock.ts, instances.ts): every engine
 * instance holds a session-level advisory lock named by its id, which the database drops with the
 * connection when the process dies.
 * - a real engine host SIGKILLed, whose instance row then names a pid that is alive on this host
 *   (pid reuse; PID 1 in a container): the next instance takes its processes over at once instead
 *   of waiting for its (ten-minute) lease — no pid is asked whether it is alive;
 * - a second live engine with the same instance id is refused; once the first closed, the id is free.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';
import { eventually } from './helpers/eventually.ts';

const MODEL = 'id: wait\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: ask } ] } ]';
const TEN_MINUTES = '600000';

const databases: TestDatabase[] = [];
const hosts: EngineProcess[] = [];
afterAll(async () => {
  for (const h of hosts) await h.kill();
  for (const db of databases) await db.drop();
});

async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase('postgresql');
  databases.push(db);
  return db;
}

async function host(url: string, instance: string): Promise<EngineProcess> {
  const h = new EngineProcess(url, undefined, { ACTS_INSTANCE: instance, ACTS_LEASE_MS: TEN_MINUTES });
  hosts.push(h);
  await Promise.race([h.ready, h.exited.then(() => Promise.reject(new Error(`host died: ${h.stderr}`)))]);
  return h;
}

describe('the instance lock on PostgreSQL', () => {
  it('a killed instance whose pid is alive again is taken over at once, not after its lease', { timeout: HOST_TEST_BUDGET_MS }, async () => {
    const db = await database();
    const first = await host(db.url, 'old');
    await first.send('deploy', { source: MODEL });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'wait' });
    await first.send('idle');
    expect((await first.kill()) as { signal: string }).toMatchObject({ signal: 'SIGKILL' });

    // the dead instance's row now names a live process of this host: this test's own
    const store = await openStore(db.url);
    const row = (await store.instances.find('old'))!;
    expect(row.lease_until).toBeGreaterThan(Date.now() + 60_000);
    await store.instances.upsert({ ...row, pid: process.pid });

    const second = await host(db.url, 'new');
    await eventually(async () => (await second.send<{ processes: number }>('stats')).processes === 1, 'the new instance runs the process', 500);
    expect((await store.procs.find(pid))!.owner).toBe('new');
    expect((await store.instances.query()).rows.map((r) => r.id)).toEqual(['new']);
    await store.close();
    await second.stop();
  });

  it('refuses a second live engine with the same instance id; the id is free once the first closed', async () => {
    const db = await database();
    const first = await Engine.create({ store: await openStore(db.url), instanceId: 'twin', autoTick: false });
    const store = await openStore(db.url);
    const refused = await Engine.create({ store, instanceId: 'twin', autoTick: false }).catch((err: unknown) => err);
    await store.close();
    expect(refused).toMatchObject({ code: 'config.invalid' });
    expect((refused as Error).message).toContain("engine instance id 'twin' is in use by a running engine on this database");
    await first.close();
    const again = await Engine.create({ store: await openStore(db.url), instanceId: 'twin', autoTick: false });
    expect((await again.instances()).map((r) => r.id)).toEqual(['twin']);
    await again.close();
  });
});
