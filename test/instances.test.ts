/**
 * Several engine instances (server/runtime/instances.ts): the claim's semantics on the memory
 * store; SQLite refusing a second live instance; two real engine hosts on one PostgreSQL database
 * sharing 500 processes, one killed mid-run and taken over by the other once its lease lapsed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { ProcRow, TaskRow } from '../server/store/contract/types.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';

const databases: TestDatabase[] = [];
const hosts: EngineProcess[] = [];
afterAll(async () => {
  for (const h of hosts) await h.kill();
  for (const db of databases) await db.drop();
});

async function host(url: string, env: Record<string, string> = {}): Promise<EngineProcess> {
  const h = new EngineProcess(url, undefined, env);
  hosts.push(h);
  await Promise.race([h.ready, h.exited.then(() => Promise.reject(new Error(`host died: ${h.stderr}`)))]);
  return h;
}

const proc = (id: string, state: string, owner: string | null, timestamp: number): ProcRow => ({
  id,
  state,
  mid: 'm',
  name: 'm',
  start_time: 0,
  end_time: 0,
  model: '',
  model_ver: 1,
  env: {},
  err: null,
  parent_pid: null,
  parent_tid: null,
  timestamp,
  owner,
  stuck_since: 0,
});

describe('claimProcesses (memory store)', () => {
  it('claims unowned, orphaned and lapsed rows in the given states, oldest first, never a live instance’s', async () => {
    const store = new MemoryStore();
    await store.instances.create({ id: 'live', host: 'h', pid: 1, lease_until: 2000, started: 0 });
    await store.instances.create({ id: 'lapsed', host: 'h', pid: 2, lease_until: 999, started: 0 });
    await store.procs.create(proc('free', 'running', null, 5));
    await store.procs.create(proc('orphan', 'running', 'gone', 4));
    await store.procs.create(proc('old', 'running', 'lapsed', 3));
    await store.procs.create(proc('busy', 'running', 'live', 1));
    await store.procs.create(proc('mine', 'running', 'me', 2));
    await store.procs.create(proc('done', 'completed', null, 0));
    await store.procs.create(proc('parked', 'none', null, 0));

    // among given ids only (a loaded parent's children)
    expect(await store.claimProcesses('me', 1000, ['running'], 10, ['orphan', 'busy', 'mine'])).toEqual(['orphan']);
    expect(await store.claimProcesses('me', 1000, ['running'], 10, [])).toEqual([]);
    expect(await store.claimProcesses('me', 1000, ['running'], 2)).toEqual(['old', 'free']);
    expect(await store.claimProcesses('me', 1000, ['running'], 10)).toEqual([]);
    expect((await store.procs.find('busy'))!.owner).toBe('live');
    expect((await store.procs.find('done'))!.owner).toBeNull();
    // the live lease ends: its rows are claimable too
    expect(await store.claimProcesses('other', 2001, ['running', 'none'], 10)).toEqual(['parked', 'busy', 'mine', 'old', 'orphan', 'free']);
    expect(await store.claimProcesses('x', 0, ['running'], 0)).toEqual([]);
  });
});

describe('SQLite is single-instance', () => {
  it('refuses a second engine while one runs; opens once it stopped or was killed', { timeout: HOST_TEST_BUDGET_MS }, async () => {
    const db = await createTestDatabase('sqlite');
    databases.push(db);
    const first = await host(db.url, { ACTS_INSTANCE: 'first' });

    const store = await openStore(db.url);
    const refused = await Engine.create({ store, autoTick: false }).catch((err: unknown) => err);
    await store.close();
    expect(refused).toMatchObject({ code: 'config.invalid' });
    expect((refused as Error).message).toMatch(/this SQLite database is in use by engine instance first \(pid \d+ on host .+\); SQLite supports one engine at a time: stop it, or use PostgreSQL/);

    await first.stop();
    const engine = await Engine.create({ store: await openStore(db.url), autoTick: false, instanceId: 'second' });
    await engine.close();

    const third = await host(db.url, { ACTS_INSTANCE: 'third' });
    await third.kill();
    const fourth = await Engine.create({ store: await openStore(db.url), autoTick: false });
    const check = await openStore(db.url);
    expect((await check.instances.query()).rows.map((r) => r.id)).toEqual([fourth.instanceId]);
    await check.close();
    await fourth.close();
  });
});

const PAIR = `
id: pair
inputs: { n: 0 }
steps:
  - { id: s1, acts: [ { uses: acts.transform.code, key: bump, params: '$set("n", n + 1)' } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: wait } ] }
`;

const UNFINISHED = ['none', 'ready', 'running', 'pending'];

describe('two engine instances on one PostgreSQL database', () => {
  it('share 500 processes; the survivor takes over a killed instance’s processes after its lease', async () => {
    const db = await createTestDatabase('postgresql');
    databases.push(db);
    const env = { ACTS_TICK_SECS: '0.5', ACTS_LEASE_MS: '2000' };
    const a = await host(db.url, { ...env, ACTS_INSTANCE: 'A' });
    const b = await host(db.url, { ...env, ACTS_INSTANCE: 'B' });
    await a.send('deploy', { source: PAIR });

    const startMany = (h: EngineProcess) => Promise.all(Array.from({ length: 250 }, () => h.send<{ pid: string }>('start', { mid: 'pair' })));
    const [onA, onB] = await Promise.all([startMany(a), startMany(b)]);
    await Promise.all([a.send('idle'), b.send('idle')]);
    const waitTid = (h: EngineProcess, pid: string) => {
      const m = h.created('wait').find((x) => x.pid === pid);
      if (!m) throw new Error(`no irq message for ${pid}`);
      return m.tid;
    };
    // wait until every irq was announced (the code act runs before it)
    for (let i = 0; i < 100 && (a.created('wait').length < 250 || b.created('wait').length < 250); i++) await new Promise((r) => setTimeout(r, 100));
    expect(a.created('wait')).toHaveLength(250);
    expect(b.created('wait')).toHaveLength(250);

    // an action sent to B for a process that runs on A is relayed to A and applied there, once
    const first = { pid: onA[0].pid, tid: waitTid(a, onA[0].pid), action: 'complete' };
    await b.send('act', first);
    await expect(b.send('act', first)).rejects.toThrow(/already completed/);
    expect(a.messages.filter((m) => m.pid === first.pid && m.key === 'wait' && m.state === 'completed')).toHaveLength(1);

    const [doneOnA, leftOnA] = [onA.slice(1, 125), onA.slice(125)];
    await Promise.all(doneOnA.map(({ pid }) => a.send('act', { pid, tid: waitTid(a, pid), action: 'complete' })));
    await a.send('idle');
    // the store is opened first: that can take seconds on a loaded machine, longer than a lease
    const store = await openStore(db.url);
    await a.kill();
    const killedAt = Date.now();
    try {
      const ownedByA = async () =>
        (await store.procs.query({ filter: { type: 'and', exprs: [{ key: 'owner', op: 'eq', value: 'A' }] } })).rows.filter((r) => UNFINISHED.includes(r.state)).length;
      expect(await ownedByA()).toBe(125);
      for (let i = 0; i < 200 && (await ownedByA()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await ownedByA()).toBe(0);
      expect(Date.now() - killedAt).toBeGreaterThan(1000); // not before A's lease lapsed
      await b.send('idle');

      await Promise.all([
        ...leftOnA.map(({ pid }) => b.send('act', { pid, tid: waitTid(a, pid), action: 'complete' })),
        ...onB.map(({ pid }) => b.send('act', { pid, tid: waitTid(b, pid), action: 'complete' })),
      ]);
      await b.send('idle');

      const procs = (await store.procs.query({ limit: 1000 })).rows;
      expect(procs).toHaveLength(500);
      expect(procs.filter((p) => p.state !== 'completed')).toEqual([]);
      const tasks = (await store.tasks.query({ limit: 100_000 })).rows;
      const byPid = new Map<string, TaskRow[]>();
      for (const t of tasks) byPid.set(t.pid, [...(byPid.get(t.pid) ?? []), t]);
      for (const p of procs) {
        const rows = byPid.get(p.id) ?? [];
        expect(rows.find((t) => t.tid === '$')!.data.n, p.id).toBe(1);
        const acts = rows.filter((t) => t.kind === 'act').map((t) => (t.node_data as { id: string }).id);
        expect(acts.length, p.id).toBe(2);
        expect(new Set(acts).size, p.id).toBe(2); // one row per act node
      }
      expect((await store.ops.query({ limit: 100_000 })).rows.filter((o) => o.status !== 'done')).toEqual([]);
      const instances = new Map((await store.instances.query()).rows.map((r) => [r.id, r]));
      expect(instances.get('B')!.lease_until).toBeGreaterThan(Date.now() - 1000);
      expect(instances.get('A')!.lease_until).toBeLessThan(Date.now());
    } finally {
      await store.close();
    }
    await b.stop();
  }, 90_000);
});
