/**
 * SQLite's write thread (server/store/sqlite-write-thread.ts, sqlite-write-batch.ts): the store
 * writer's write-only batches are written by a worker thread with its own connection — one
 * transaction each, in the order they were handed over, several under way at once; a batch that
 * needs the transaction (a read) runs again on the store's connection after them; a failed batch
 * leaves nothing behind; a read waits for the writes handed over before it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../server/store/contract/types.ts';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import { SqliteWriteThread, writeThreadStatements } from '../server/store/sqlite-write-thread.ts';
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
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acts-write-thread-')), 'db.sqlite');
    const store = await openStore(`file:${file}`);
    stores.push(store);
    const thread = new SqliteWriteThread(file, 5_000);
    try {
      const insert = `INSERT INTO "models" ("id", "name", "ver", "size", "data", "create_time", "update_time", "seq") VALUES (?, 'm', 1, 0, '', 0, 0, 1)`;
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
});
