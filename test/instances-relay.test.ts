/**
 * Two engine instances in one test process on one PostgreSQL database, with one manual clock, so
 * leases lapse exactly when a test says: the write fence of an instance that lost its lease while
 * alive, work relayed to the instance that runs a process (a subflow's return and abort, a client
 * action, a migration), `procs.wait` for a process of another instance, the clean-up of lapsed
 * instance rows, and which batches the fence guards.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../server/engine/clock.ts';
import { Engine } from '../server/runtime/engine.ts';
import type { Message } from '../server/engine/messages.ts';
import type { GatheredWrites, Store, WriteGuard } from '../server/store/contract/types.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';

const databases: TestDatabase[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});
afterAll(async () => {
  for (const db of databases) await db.drop();
});

const LEASE_MS = 1000;

interface Instance {
  engine: Engine;
  messages: Message[];
  /** The tid of the latest `created` message of an act key in a process. */
  tid(pid: string, key: string): string;
}

async function instance(url: string, id: string, clock: ManualClock, cacheCap?: number, leaseMs = LEASE_MS): Promise<Instance> {
  const engine = await Engine.create({ store: await openStore(url), clock, instanceId: id, leaseMs, autoTick: false, tickIntervalSecs: 1, cacheCap });
  engines.push(engine);
  const messages: Message[] = [];
  engine.channel({ id: `record-${id}` }).onMessage((m) => void messages.push(m));
  return {
    engine,
    messages,
    tid: (pid, key) => {
      const found = messages.filter((m) => m.pid === pid && m.key === key && m.state === 'created' && m.type === 'act').pop();
      if (!found) throw new Error(`no created message for ${key} in ${pid} on ${id}`);
      return found.tid;
    },
  };
}

async function pair(cacheCapB?: number): Promise<{ a: Instance; b: Instance; clock: ManualClock; url: string }> {
  const db = await createTestDatabase('postgresql');
  databases.push(db);
  const clock = new ManualClock();
  clock.set(Date.UTC(2026, 10, 29, 12));
  const a = await instance(db.url, 'A', clock);
  const b = await instance(db.url, 'B', clock, cacheCapB);
  return { a, b, clock, url: db.url };
}

const ONE_IRQ = 'id: one\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: wait } ] } ]';
const PARENT = 'id: parent\nsteps: [ { id: s1, acts: [ { uses: acts.core.subflow, key: call, params: { to: one } } ] } ]';

/**
 * A parent (subflow act waiting) on B and its child (irq waiting) on C, A a third party: both
 * start on A; C takes the child over in a race with B (done here by writing C's claim, as C's
 * `claimProcesses` would; C's lease outlasts A's); A hangs, B (room for one process) takes the
 * parent over — not the child, which a live C owns —, C loads the child, A comes back with nothing.
 */
async function splitParentAndChild(): Promise<{ a: Instance; b: Instance; c: Instance; parent: string; child: Message }> {
  const { a, b, clock, url } = await pair(1);
  const c = await instance(url, 'C', clock, undefined, LEASE_MS * 10);
  await a.engine.models.deploy(ONE_IRQ);
  await a.engine.models.deploy(PARENT);
  const { pid: parent } = await a.engine.procs.start('parent');
  await a.engine.idle();
  const child = a.messages.find((m) => m.key === 'wait' && m.state === 'created')!;
  const store = await openStore(url);
  try {
    await store.procs.update({ ...(await store.procs.find(child.pid))!, owner: 'C' });
  } finally {
    await store.close();
  }
  clock.advance(LEASE_MS + 1);
  await b.engine.tick();
  await c.engine.tick();
  await a.engine.tick();
  return { a, b, c, parent, child };
}

describe('several instances: fence and relay (PostgreSQL)', () => {
  it('an instance that lost its lease cannot write over the new owner; its action goes to the new owner', async () => {
    const { a, b, clock } = await pair();
    await a.engine.models.deploy(ONE_IRQ);
    const { pid } = await a.engine.procs.start('one');
    await a.engine.idle();
    const tid = a.tid(pid, 'wait');

    // A hangs past its lease; B takes the process over
    clock.advance(LEASE_MS + 1);
    await b.engine.tick();
    await b.engine.idle();
    expect(b.engine.stats().processes).toBe(1);

    // A still holds the process in memory and is asked to complete it: the fence drops A's
    // writes, A lets the process go and relays the action to B, which applies it once
    expect(a.engine.stats().processes).toBe(1);
    await a.engine.act.complete(pid, tid, { by: 'zombie' });
    await b.engine.idle();
    expect(a.engine.stats().processes).toBe(0);
    const detail = await b.engine.procs.get(pid);
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.tid === tid)!.state).toBe('completed');
    expect(b.messages.filter((m) => m.pid === pid && m.key === 'wait' && m.state === 'completed')).toHaveLength(1);
    const ops = await b.engine.outbox({ limit: 100 });
    expect(ops.filter((o) => o.status !== 'done')).toEqual([]);
    expect(ops.filter((o) => o.type === 'relay').map((o) => (o.options as { $result: unknown }).$result)).toEqual([{ ok: true }]);
  });

  it('a migration asked on one instance is applied by the instance that runs the process', async () => {
    const { a, b } = await pair();
    await a.engine.models.deploy('id: mig\nsteps: [ { id: s1, acts: [ { id: ask, uses: acts.core.irq, key: wait } ] } ]');
    const { pid } = await a.engine.procs.start('mig');
    await a.engine.idle();
    await b.engine.models.deploy('id: mig\nsteps: [ { id: s0, acts: [ { id: ask, uses: acts.core.irq, key: wait } ] }, { id: s2, acts: [ { uses: acts.core.irq, key: then } ] } ]');
    const plan = { ver: 2, map: { s1: 's0' } };
    // B checks the process as stored, then its migration goes to A, which runs it
    expect(await b.engine.migrations.problems(pid, plan)).toEqual([]);
    await b.engine.migrations.migrate(pid, plan);
    expect(b.engine.stats().processes).toBe(0);
    const detail = await a.engine.procs.get(pid);
    expect(detail.model_ver).toBe(2);
    expect(detail.tasks.filter((t) => !['completed', 'skipped'].includes(t.state)).map((t) => t.nid)).toEqual(['mig', 's0', 'ask']);
    await a.engine.act.complete(pid, a.tid(pid, 'wait'));
    await a.engine.idle();
    await a.engine.act.complete(pid, a.tid(pid, 'then'));
    await a.engine.idle();
    expect((await a.engine.procs.get(pid)).state).toBe('completed');
  });

  it('an instance whose lease lapsed drops the processes taken over at its next renewal', async () => {
    const { a, b, clock } = await pair();
    await a.engine.models.deploy(ONE_IRQ);
    await a.engine.procs.start('one');
    await a.engine.idle();
    clock.advance(LEASE_MS + 1);
    await b.engine.tick();
    expect(a.engine.stats().processes).toBe(1);
    await a.engine.tick();
    expect(a.engine.stats().processes).toBe(0);
    expect(b.engine.stats().processes).toBe(1);
  });

  it('a child on one instance returns to its parent on the other; procs.wait sees it end elsewhere', async () => {
    const { a, b, c, parent, child } = await splitParentAndChild();
    expect([a.engine.stats().processes, b.engine.stats().processes, c.engine.stats().processes]).toEqual([0, 1, 1]);
    expect((await b.engine.procs.get(parent)).state).toBe('running');

    const waited = b.engine.procs.wait(child.pid);
    await a.engine.act.complete(child.pid, child.tid, { answer: 42 });
    await eventually(async () => (await b.engine.procs.get(parent)).state === 'completed', 'the parent completed on B', 150);
    expect((await waited).state).toBe('completed');
    const call = (await b.engine.procs.get(parent)).tasks.filter((t) => t.key === 'call');
    expect(call.map((t) => t.state)).toEqual(['completed']);
  });

  it('a parent aborted on one instance aborts its child on the other', async () => {
    const { a, b, parent, child } = await splitParentAndChild();
    await b.engine.procs.abort(parent);
    await eventually(async () => (await a.engine.procs.get(child.pid)).state === 'aborted', 'the child was aborted on C', 150);
    expect((await b.engine.procs.get(parent)).state).toBe('aborted');
  });

  it('the leader removes the rows of instances that lapsed long ago', async () => {
    const { a, b, clock } = await pair();
    const ids = async () => (await b.engine.instances()).map((r) => r.id);
    clock.advance(LEASE_MS * 5);
    await b.engine.tick();
    expect(await ids()).toEqual(['A', 'B']); // lapsed, still listed for a while
    clock.advance(LEASE_MS * 7);
    await b.engine.tick();
    expect(await ids()).toEqual(['B']);
    // A comes back (it only hung): its next renewal writes its row again
    await a.engine.tick();
    expect(await ids()).toEqual(['A', 'B']);
  });
});

describe('which store batches the write fence guards (PostgreSQL)', () => {
  it('a start under a generated pid writes its first batch unfenced; the later ones, and a start under a chosen pid, are fenced', async () => {
    const db = await createTestDatabase('postgresql');
    databases.push(db);
    const store = await openStore(db.url);
    // the guard of every write-only batch the engine's writer hands to the (real) store, as a
    // batch to run or as writes gathered ahead (Store.gatherWrites)
    const guards: Array<{ pids: string[]; fresh: string[] } | null> = [];
    const record = (guard?: WriteGuard) => guards.push(guard ? { pids: [...guard.pids], fresh: [...(guard.fresh ?? [])] } : null);
    const spied = new Proxy(store, {
      get(target, name) {
        if (name === 'writeOnlyBatch') return (work: (tx: Store) => Promise<void>, guard?: WriteGuard) => (record(guard), target.writeOnlyBatch!(work, guard));
        if (name === 'writeGathered') return (gathered: readonly GatheredWrites[], guard?: WriteGuard) => (record(guard), target.writeGathered!(gathered, guard));
        return Reflect.get(target, name, target);
      },
    });
    const engine = await Engine.create({ store: spied, instanceId: 'A', autoTick: false });
    engines.push(engine);
    const messages: Message[] = [];
    engine.channel({ id: 'record' }).onMessage((m) => void messages.push(m));
    await engine.models.deploy(ONE_IRQ);

    // no other instance can own a process whose rows were never written: its first batch skips the fence
    guards.length = 0;
    const { pid } = await engine.procs.start('one');
    await engine.idle();
    expect(guards[0]).toBeNull();
    expect((await store.procs.find(pid))?.owner).toBe('A');
    // from then on every batch of the process is fenced (a takeover may have happened meanwhile)
    guards.length = 0;
    const tid = messages.find((m) => m.pid === pid && m.key === 'wait' && m.state === 'created')!.tid;
    await engine.act.complete(pid, tid, {});
    await engine.idle();
    // (the action's own record, an outbox row written before its job runs, holds no process rows: never fenced)
    const fenced = guards.filter((guard) => guard !== null);
    expect(fenced.length).toBeGreaterThan(0);
    for (const guard of fenced) expect(guard.pids).toContain(pid);
    expect((await engine.procs.get(pid)).state).toBe('completed');

    // a pid the caller chose may be stored already: its first batch is fenced and checks that
    guards.length = 0;
    await engine.procs.start('one', { pid: 'chosen-1' });
    expect(guards[0]).toEqual({ pids: ['chosen-1'], fresh: ['chosen-1'] });
    await expect(engine.procs.start('one', { pid })).rejects.toMatchObject({ code: 'process.duplicate_pid' });
  });
});
