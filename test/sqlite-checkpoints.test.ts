/**
 * SQLite checkpoints run off the engine's thread (server/store/sqlite-checkpointer.ts): what the
 * store's writes put into the WAL reaches the database file without the engine's connection ever
 * checkpointing (its own automatic checkpoint waits for ~64 MB of WAL), and closing the store
 * stops the checkpoint thread.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { task } from './helpers/store-samples.ts';

let db: TestDatabase | undefined;
let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
  await db?.drop();
  store = undefined;
  db = undefined;
});

describe('SQLite checkpoints', () => {
  it('move the WAL into the database file on a thread of their own', async () => {
    db = await createTestDatabase('sqlite');
    const file = db.url.slice('file:'.length);
    store = await openStore(db.url);
    const before = fs.statSync(file).size;
    // ~2 MB of task rows: far below the engine connection's own checkpoint bound
    const payload = 'x'.repeat(4_000);
    for (let b = 0; b < 10; b++) {
      await store.batch(async (tx) => {
        for (let i = 0; i < 50; i++) await tx.tasks.upsert({ ...task(`t${b}-${i}`, 'p1', i), data: { payload } });
      });
    }
    const grown = await eventually(() => fs.statSync(file).size > before + 1_000_000 && fs.statSync(file).size, 'the database file holds the rows', 500);
    expect(grown).toBeGreaterThan(before + 1_000_000);
    expect((await store.tasks.find('t9-49'))?.data).toEqual({ payload });
  });

  it('stop with the store, and the file opens again with every row', async () => {
    db = await createTestDatabase('sqlite');
    store = await openStore(db.url);
    await store.batch(async (tx) => {
      for (let i = 0; i < 20; i++) await tx.tasks.upsert(task(`t${i}`, 'p1', i));
    });
    await store.close();
    store = await openStore(db.url);
    expect((await store.tasks.query()).rows.map((r) => r.id)).toHaveLength(20);
  });
});
