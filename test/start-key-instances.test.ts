/**
 * Idempotency keys across engine instances (start-keys.ts, the `start_claims` table):
 * - two real engines on one PostgreSQL database, many concurrent starts with one key split
 *   between them: exactly one process row holds the key and every answer names it (the same
 *   start) or is `process.key_conflict` naming it (other options);
 * - a claim whose instance's process is alive (its instance lock held) is waited for, also past its
 *   lease; once the lock is free the next start takes the claim over, keeping its pid;
 * - a claim left by this very instance id (an earlier life) is taken over at once (memory store);
 * - a real SIGKILL of an engine host right after it claimed a key and before it wrote the process
 *   (fault point `start:claimed`), on SQLite and PostgreSQL: the repeat on the next host starts the
 *   process (the claimer's process is gone), with the claimed pid, and the claim is gone after.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../server/engine/clock.ts';
import { ActError } from '../server/engine/errors.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { ProcRow, StartClaimRow, Store } from '../server/store/contract/types.ts';
import { Engine } from '../server/runtime/engine.ts';
import { startDigest } from '../server/runtime/start-keys.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';
import { eventually } from './helpers/eventually.ts';

const MODEL = 'id: once\ninputs: { amount: 0 }\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: ask } ] } ]';
const LEASE_MS = 1000;

const databases: TestDatabase[] = [];
const engines: Engine[] = [];
const hosts: EngineProcess[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});
afterAll(async () => {
  for (const h of hosts) await h.kill();
  for (const db of databases) await db.drop();
});

async function database(backend: 'sqlite' | 'postgresql'): Promise<TestDatabase> {
  const db = await createTestDatabase(backend);
  databases.push(db);
  return db;
}

async function engine(store: Store, id: string, clock?: ManualClock): Promise<Engine> {
  const e = await Engine.create({ store, clock, instanceId: id, leaseMs: LEASE_MS, autoTick: false });
  engines.push(e);
  return e;
}

const keyFilter = (key: string) => ({ filter: { type: 'and' as const, exprs: [{ key: 'start_key', op: 'eq' as const, value: key }] } });
const withKey = async (store: Store, key: string): Promise<ProcRow[]> => (await store.procs.query(keyFilter(key))).rows;

type Answer = { pid: string; repeated: boolean } | { conflict: string };

/** A start's answer, or the pid a `process.key_conflict` names; any other error fails the test. */
async function answerOf(start: Promise<{ pid: string; repeated: boolean }>): Promise<Answer> {
  try {
    const { pid, repeated } = await start;
    return { pid, repeated };
  } catch (err) {
    if (err instanceof ActError && err.code === 'process.key_conflict') return { conflict: (err.details as { pid: string }).pid };
    throw err;
  }
}

/** Engines A and B on one new PostgreSQL database with the model deployed; `store` is A's. */
async function pair(): Promise<{ store: Store; a: Engine; b: Engine }> {
  const db = await database('postgresql');
  const store = await openStore(db.url);
  const a = await engine(store, 'A');
  const b = await engine(await openStore(db.url), 'B');
  await a.models.deploy(MODEL);
  return { store, a, b };
}

describe('one key, two engines on one PostgreSQL database', () => {
  it('many concurrent starts with one key start one process; every answer names it', async () => {
    const { store, a, b } = await pair();
    for (let round = 0; round < 5; round++) {
      const key = `burst-${round}`;
      const starts = Array.from({ length: 16 }, (_, i) => answerOf((i % 2 ? a : b).procs.start('once', { amount: 7 }, { idempotencyKey: key })));
      const answers = (await Promise.all(starts)) as Array<{ pid: string; repeated: boolean }>;
      const rows = await withKey(store, key);
      expect(rows.map((r) => r.id)).toHaveLength(1);
      expect(new Set(answers.map((x) => x.pid))).toEqual(new Set([rows[0].id]));
      expect(answers.filter((x) => !x.repeated)).toHaveLength(1);
    }
    await a.idle();
    await b.idle();
    expect(a.stats().processes + b.stats().processes).toBe(5);
  });

  it('concurrent starts with one key and different inputs: one process, the others are its repeats or key conflicts naming it', async () => {
    const { store, a, b } = await pair();
    const starts = Array.from({ length: 16 }, (_, i) => answerOf((i % 2 ? a : b).procs.start('once', { amount: i % 4 < 2 ? 1 : 2 }, { idempotencyKey: 'mixed' })));
    const answers = await Promise.all(starts);
    const rows = await withKey(store, 'mixed');
    expect(rows).toHaveLength(1);
    const pid = rows[0].id;
    expect(answers.map((x) => ('conflict' in x ? x.conflict : x.pid))).toEqual(answers.map(() => pid));
    expect(answers.filter((x) => 'pid' in x && !x.repeated)).toHaveLength(1);
    expect(answers.filter((x) => 'conflict' in x).length).toBeGreaterThan(0);
  });
});

describe('a claim whose claimer is gone', () => {
  it('is waited for while its process is alive, also past its lease; taken over (same pid) once its instance lock is free', async () => {
    const db = await database('postgresql');
    const clock = new ManualClock();
    clock.set(Date.UTC(2026, 11, 1, 12));
    const store = await openStore(db.url);
    const b = await engine(store, 'B', clock);
    await b.models.deploy(MODEL);
    // instance A (its process alive: it holds its instance lock) claimed the key for a start it has not written: it hangs
    const storeA = await openStore(db.url);
    expect(await storeA.acquireInstanceLock!('A')).toBe(true);
    await store.instances.upsert({ id: 'A', host: 'elsewhere', pid: 1, lease_until: clock.now() + LEASE_MS, started: clock.now() });
    const claim: StartClaimRow = { id: 'hung', pid: 'pid-of-a', digest: startDigest('once', { amount: 3 }), instance: 'A', claimed: clock.now() };
    expect(await store.queries.claimStartKey(claim)).toBe(true);

    let looks = 0;
    const find = store.startClaims.find.bind(store.startClaims);
    store.startClaims.find = (id) => ((looks += 1), find(id));
    let settled = false;
    const started = b.procs.start('once', { amount: 3 }, { idempotencyKey: 'hung' }).finally(() => (settled = true));
    await eventually(() => looks >= 3, 'B looked at the claim three times', 500);
    clock.advance(LEASE_MS + 1); // A's lease lapses: A may only hang, and write after all
    const lapsedAt = looks;
    await eventually(() => looks >= lapsedAt + 3, 'B looked at the claim three more times', 500);
    expect(settled).toBe(false);
    expect(await withKey(store, 'hung')).toEqual([]);

    await storeA.close(); // A's process is gone: the database dropped its lock
    expect(await started).toMatchObject({ pid: 'pid-of-a', repeated: false });
    expect((await withKey(store, 'hung')).map((r) => r.id)).toEqual(['pid-of-a']);
    expect(await store.startClaims.find('hung')).toBeUndefined();
    expect(await b.procs.start('once', { amount: 3 }, { idempotencyKey: 'hung' })).toMatchObject({ pid: 'pid-of-a', repeated: true });
  });

  it('left by this instance id in an earlier life is taken over at once (memory store)', async () => {
    const store = new MemoryStore();
    await store.queries.claimStartKey({ id: 'old', pid: 'p-old', digest: 'other', instance: 'M', claimed: 1 });
    const e = await engine(store, 'M');
    await e.models.deploy(MODEL);
    const first = await e.procs.start('once', {}, { idempotencyKey: 'old' });
    // the claimed pid is kept, so a claimer that only hung would write this very process
    expect(first).toMatchObject({ pid: 'p-old', repeated: false });
    expect(await store.startClaims.query()).toMatchObject({ count: 0 });
    expect(await e.procs.start('once', {}, { idempotencyKey: 'old' })).toMatchObject({ pid: first.pid, repeated: true });
  });
});

describe.each(SQL_BACKENDS)('a start cut off by SIGKILL after it claimed its key, on %s', (backend) => {
  async function host(url: string, crashAt?: string): Promise<EngineProcess> {
    const h = new EngineProcess(url, crashAt);
    hosts.push(h);
    await Promise.race([h.ready, h.exited.then(() => Promise.reject(new Error(`host died: ${h.stderr}`)))]);
    return h;
  }

  async function stored(url: string): Promise<{ rows: ProcRow[]; claim: StartClaimRow | undefined }> {
    const store = await openStore(url);
    try {
      return { rows: await withKey(store, 'cut'), claim: await store.startClaims.find('cut') };
    } finally {
      await store.close();
    }
  }

  it('the repeat on the next host starts the process with the claimed pid; the claim is gone', { timeout: HOST_TEST_BUDGET_MS }, async () => {
    const db = await database(backend);
    const first = await host(db.url, 'start:claimed');
    await first.send('deploy', { source: MODEL });
    await expect(first.send('start', { mid: 'once', options: { amount: 4 }, key: 'cut' })).rejects.toThrow(/exited/);
    expect((await first.exited).signal).toBe('SIGKILL');
    const before = await stored(db.url);
    expect(before.rows).toEqual([]);
    expect(before.claim).toBeDefined();

    const second = await host(db.url);
    const retry = await second.send<{ pid: string; repeated: boolean }>('start', { mid: 'once', options: { amount: 4 }, key: 'cut' });
    expect(retry).toMatchObject({ pid: before.claim!.pid, repeated: false });
    expect(await second.send('start', { mid: 'once', options: { amount: 4 }, key: 'cut' })).toMatchObject({ pid: retry.pid, repeated: true });
    await second.send('idle');
    const after = await stored(db.url);
    expect(after.rows.map((r) => r.id)).toEqual([retry.pid]);
    expect(after.claim).toBeUndefined();
    await second.stop();
  });
});
