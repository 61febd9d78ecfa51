/**
 * SQLite's write thread (server/store/sqlite-write-thread.ts, sqlite-write-batch.ts): the store
 * writer's write-only batches are written by a worker thread with its own connection — each
 * atomically, in the order they were handed over, several under way at once, those waiting
 * there in one commit; a batch that needs the transaction (a read) runs again on the store's
 * connection after them; a failed batch leaves nothing behind, and the batches committed with it
 * are written; a read waits for the writes handed over before it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../server/store/contract/types.ts';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import { SqliteWriteThread, writeThreadGroupedBatches, writeThreadStatements } from '../server/store/sqlite-write-thread.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { samples } from './helpers/store-samples.ts';

const databases: TestDatabase[] = [];
const stores: OpenedStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const db of databases) await db.drop();
});

async function sqliteStore(): Promise<OpenedStore> {
  const db = await createTestDatabase('sqlite');
  databases.push(db);
  const store = await openStore(db.url);
  stores.push(store);
  return store;
}

const named = (id: string, name: string) => ({ ...samples.procs(id, 0), name });

/** A model row with the id of its parameter, as the write thread is handed it. */
const insert = `INSERT INTO "models" ("id", "name", "ver", "size", "data", "create_time", "update_time", "seq") VALUES (?, 'm', 1, 0, '', 0, 0, 1)`;

/** A store on a new file and a write thread of its own on that file. */
async function threadOnFreshFile(): Promise<{ store: OpenedStore; thread: SqliteWriteThread }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acts-write-thread-')), 'db.sqlite');
  const store = await openStore(`file:${file}`);
  stores.push(store);
  return { store, thread: new SqliteWriteThread(file, 5_000) };
}

describe('the SQLite store writer batches on the write thread', () => {
  it('writes several batches under way at once, in the order they were handed over', async () => {
    const store = await sqliteStore();
    expect(store.pipelinedWrites).toBeGreaterThan(1);
    const before = writeThreadStatements();
    const batches = Array.from({ length: 20 }, (_, i) => store.writeOnlyBatch!(async (tx) => {
      await tx.procs.upsert(named('p1', `v${i}`));
      await tx.procs.upsert(named(`q${i}`, 'one'));
    }));
    // a read waits for the writes handed over before it
    expect((await store.procs.find('p1'))?.name).toBe('v19');
    expect(await Promise.all(batches)).toEqual(Array(20).fill([]));
    expect((await store.procs.query()).count).toBe(21);
    expect(writeThreadStatements() - before).toBeGreaterThanOrEqual(20);
  });

  it('runs a batch that reads again on the store connection, after the batches before it, and only once in effect', async () => {
    const store = await sqliteStore();
    const first = store.writeOnlyBatch!(async (tx) => tx.procs.upsert(named('p1', 'first')));
    let runs = 0;
    const reading = store.writeOnlyBatch!(async (tx: Store) => {
      runs++;
      await tx.procs.upsert(named('p2', 'queued before the read'));
      const seen = await tx.procs.find('p1');
      await tx.procs.upsert(named('p3', `saw ${seen?.name ?? 'nothing'}`));
    });
    await Promise.all([first, reading]);
    expect(runs).toBe(2);
    expect((await store.procs.find('p2'))?.name).toBe('queued before the read');
    expect((await store.procs.find('p3'))?.name).toBe('saw first');
  });

  it('a failed batch leaves nothing behind; the next one writes', async () => {
    const { store, thread } = await threadOnFreshFile();
    try {
      await expect(thread.run([[insert, ['a']], ['INSERT INTO "no_such_table" VALUES (1)', []]])).rejects.toThrow(/the SQLite write failed: no such table/);
      expect(await store.models.exists('a')).toBe(false);
      await thread.run([[insert, ['b']]]);
      await thread.idle();
      expect(await store.models.exists('b')).toBe(true);
    } finally {
      await thread.stop();
    }
    await expect(thread.run([])).rejects.toThrow(/not running/);
  });

  it('commits the batches waiting at the thread together; one that fails there is rolled back alone', async () => {
    const { store, thread } = await threadOnFreshFile();
    try {
      // a first batch that keeps the thread busy while the next ones are handed over behind it
      const slow = `CREATE TEMP TABLE "busy" AS WITH RECURSIVE "n"("x") AS (SELECT 1 UNION ALL SELECT "x" + 1 FROM "n" WHERE "x" < 2000000) SELECT "x" FROM "n"`;
      const grouped = writeThreadGroupedBatches();
      await Promise.all([thread.run([[slow, []], [insert, ['a']]]), thread.run([[insert, ['b']]]), thread.run([[insert, ['c']]])]);
      // three batches, at most two commits: b and c waited behind the first
      expect(writeThreadGroupedBatches() - grouped).toBeGreaterThanOrEqual(1);
      const failing = [[insert, ['e']], ['INSERT INTO "no_such_table" VALUES (1)', []]] as Array<[string, unknown[]]>;
      const written = [thread.run([[`DROP TABLE "busy"`, []], [slow, []]]), thread.run([[insert, ['d']]]), thread.run(failing), thread.run([[insert, ['f']]])];
      await expect(written[2]).rejects.toThrow(/no such table/);
      await Promise.all([written[0], written[1], written[3]]);
      for (const [id, stored] of [['a', true], ['b', true], ['c', true], ['d', true], ['e', false], ['f', true]] as const) expect(await store.models.exists(id)).toBe(stored);
    } finally {
      await thread.stop();
    }
  });
});
