/**
 * A restarted server serves while it recovers (issue 10, item 13): a real server process on
 * PostgreSQL with 1,000 unfinished processes in the store. The test holds an ACCESS EXCLUSIVE
 * lock on `tasks`, so recovery cannot read task rows until the test lets it: meanwhile the server
 * listens, `/readyz` answers 503 with the progress, `health.get` answers with it, and an action
 * on a process not loaded yet waits. Released, recovery loads every process, `/readyz` turns 200
 * and the waiting action is applied. An action that waits longer than the relay timeout is refused
 * with the retryable `engine.busy` (reason `recovering`).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { copyProcess, rowsOf } from './helpers/process-copies.ts';
import { ServerProcess } from './helpers/server-process.ts';

const PROCESSES = 1000;
const MODEL = 'id: wait\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: hold } ] } ]';

let db: TestDatabase | undefined;
let server: ServerProcess | undefined;
let locker: pg.Client | undefined;
afterAll(async () => {
  await locker?.end().catch(() => undefined);
  await server?.kill();
  await db?.drop();
});

/** Writes `count` waiting processes (one real, the rest copies of its rows); the irq task's tid. */
async function seed(url: string, count = PROCESSES): Promise<{ pids: string[]; tid: string }> {
  const store = await openStore(url);
  const engine = await Engine.create({ store, autoTick: false });
  try {
    await engine.models.deploy(MODEL);
    const { pid } = await engine.procs.start('wait');
    await engine.idle();
    const rows = await rowsOf(store, pid);
    const copies = await copyProcess(store, rows, count - 1, 'copy-');
    const tid = rows.tasks.find((t) => t.kind === 'act')!.tid;
    return { pids: [pid, ...copies], tid };
  } finally {
    await engine.close();
  }
}

async function readyz(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls until `check` returns something (every 50 ms, up to `ms`). */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('recovery in the background (PostgreSQL)', () => {
  it('serves the API and reports progress on /readyz and health.get until every process is loaded', async () => {
    db = await createTestDatabase('postgresql');
    const { pids, tid } = await seed(db.url);
    locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE');

    server = await new ServerProcess(db.url).start();
    const api = server.client();
    const blocked = await until('recovery knows its total', 60_000, async () => {
      const r = await readyz(server!.url);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ status: 'recovering', recovering: true, loaded: 0 });
      return r.body.total === PROCESSES ? r : undefined;
    });
    expect(blocked.body.total).toBe(PROCESSES);
    expect((await api.health.get.query()).recovery).toEqual({ recovering: true, loaded: 0, total: PROCESSES, failed: 0 });

    // an action on a process not loaded yet waits for recovery instead of being refused
    let settled = false;
    const completing = api.tasks.complete.mutate({ pid: pids[PROCESSES - 1], tid, options: {} }).finally(() => (settled = true));
    await api.health.get.query();
    expect(settled).toBe(false);

    await locker.query('COMMIT');
    const ready = await until('/readyz is 200', 120_000, async () => {
      const r = await readyz(server!.url);
      return r.status === 200 ? r : undefined;
    });
    expect(ready.body).toMatchObject({ status: 'ready', recovering: false });
    await completing;
    const health = await api.health.get.query();
    expect(health.recovery).toEqual({ recovering: false, loaded: PROCESSES, total: PROCESSES, failed: 0 });
    expect((await api.processes.get.query({ pid: pids[PROCESSES - 1] })).process.state).toBe('completed');
    await until('the completed process left memory', 30_000, async () => ((await api.health.get.query()).stats.processes === PROCESSES - 1 ? true : undefined));
  }, 240_000);

  it('refuses an action that waited longer than the relay timeout with the retryable engine.busy (reason recovering)', async () => {
    const locked = await createTestDatabase('postgresql');
    const { pids, tid } = await seed(locked.url, 50);
    const holder = new pg.Client({ connectionString: locked.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE');
    const engine = await Engine.create({ store: await openStore(locked.url), autoTick: false, recoverInBackground: true, relayTimeoutMs: 300 });
    try {
      const refused = await engine.act.complete(pids[0], tid).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: 'engine.busy', details: { reason: 'recovering', loaded: 0, retryable: true } });
      expect((refused as Error).message).toMatch(/is not loaded yet: the engine is still recovering its processes \(0 of \d+ loaded\); try again shortly/);
      await holder.query('COMMIT');
      await engine.recovered();
      expect(engine.health().recovery).toEqual({ recovering: false, loaded: 50, total: 50, failed: 0 });
      await engine.act.complete(pids[0], tid);
      expect((await engine.procs.wait(pids[0])).state).toBe('completed');
    } finally {
      await holder.end();
      await engine.close();
      await locked.drop();
    }
  }, 120_000);
});
