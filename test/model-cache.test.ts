/**
 * The compiled-model cache (server/runtime/models.ts): a start does not read the model row once
 * the model is cached; on a shared PostgreSQL store a deploy or a removal on one instance reaches
 * the other at once (NOTIFY), and a change that was not announced is seen within `modelFreshMs`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';

const databases: TestDatabase[] = [];
const engines: Engine[] = [];
afterAll(async () => {
  for (const engine of engines) await engine.close();
  for (const db of databases) await db.drop();
});

const model = (ver: string) => `id: cached\nname: ${ver}\nsteps:\n  - id: s1\n    acts:\n      - uses: acts.core.irq\n`;

/** Counts the reads of model rows through `store`. */
function countModelReads(store: OpenedStore): { reads: number } {
  const counter = { reads: 0 };
  const find = store.models.find.bind(store.models);
  store.models.find = (id) => {
    counter.reads++;
    return find(id);
  };
  return counter;
}

async function engineOn(url: string, options: { modelFreshMs?: number } = {}): Promise<{ engine: Engine; store: OpenedStore }> {
  const store = await openStore(url);
  const engine = await Engine.create({ store, autoTick: false, ...options });
  engines.push(engine);
  return { engine, store };
}

async function database(backend: (typeof BACKENDS)[number]): Promise<string> {
  const db = await createTestDatabase(backend);
  databases.push(db);
  return db.url;
}

/** The model version a new process on `engine` runs. */
async function startedVersion(engine: Engine): Promise<string> {
  const proc = await engine.procs.start('cached', {});
  return proc.name;
}

describe('the model cache', () => {
  for (const backend of BACKENDS) {
    it(`${backend}: starts after a deploy read no model row`, async () => {
      // (PostgreSQL: a freshness bound no loaded machine reaches within the test)
      const { engine, store } = await engineOn(await database(backend), { modelFreshMs: 3_600_000 });
      await engine.models.deploy(model('v1'));
      const counter = countModelReads(store);
      for (let i = 0; i < 20; i++) expect(await startedVersion(engine)).toBe('v1');
      expect(counter.reads).toBe(0);
      await engine.models.deploy(model('v2'));
      expect(await startedVersion(engine)).toBe('v2');
      await engine.models.remove('cached');
      await expect(engine.procs.start('cached', {})).rejects.toMatchObject({ code: 'model.not_found' });
    });
  }

  it('postgresql: a deploy and a removal on one instance reach the other by notification', async () => {
    const url = await database('postgresql');
    // a freshness bound no test waits out: only the notification can tell B
    const a = await engineOn(url, { modelFreshMs: 3_600_000 });
    const b = await engineOn(url, { modelFreshMs: 3_600_000 });
    await a.engine.models.deploy(model('v1'));
    expect(await startedVersion(b.engine)).toBe('v1');
    await a.engine.models.deploy(model('v2'));
    await eventually(async () => (await startedVersion(b.engine)) === 'v2', 'instance B runs v2', 250);
    await a.engine.models.remove('cached');
    await eventually(
      () => b.engine.procs.start('cached', {}).then(() => false, (err: { code?: string }) => err.code === 'model.not_found'),
      'instance B no longer finds the model',
      250,
    );
  });

  it('postgresql: a change nobody announced is read again once the cached version is older than modelFreshMs', async () => {
    const url = await database('postgresql');
    const { engine, store } = await engineOn(url, { modelFreshMs: 200 });
    await engine.models.deploy(model('v1'));
    // the start confirms the cached version with the store no earlier than now
    const confirmed = Date.now();
    expect(await startedVersion(engine)).toBe('v1');
    const row = await store.models.find('cached');
    // written past the engine: no notification
    await store.models.update({ ...row!, ver: row!.ver + 1, data: model('v9') });
    await eventually(async () => (await startedVersion(engine)) === 'v9', 'the engine runs the unannounced version', 250);
    expect(Date.now() - confirmed).toBeGreaterThanOrEqual(200);
  });
});
