/**
 * The PostgreSQL store's pipelined write connection (server/store/pg-pipeline.ts) and the store
 * writer on it: statements commit in the order they were sent, a statement that fails fails
 * alone, `drained()` waits for the statements sent before it only — and a fenced batch, which may
 * be written again, is never overtaken by a batch queued after it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreWriter } from '../server/runtime/store-writer.ts';
import { PgPipeline } from '../server/store/pg-pipeline.ts';
import { createTestDatabase, useTestStore, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { samples, task } from './helpers/store-samples.ts';

describe('PostgreSQL pipelined connection', () => {
  let db: TestDatabase;
  let pipeline: PgPipeline;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('CREATE TABLE "pipeline_log" ("n" int PRIMARY KEY, "at" timestamptz NOT NULL DEFAULT clock_timestamp(), "note" text)');
    pipeline = new PgPipeline(db.url);
  });
  afterAll(async () => {
    await pipeline?.close();
    await admin?.end();
    await db?.drop();
  });

  it('commits statements in the order they were sent, each its own transaction', async () => {
    // the first one sleeps: the others are sent behind it and run after it, in order
    const sent = [pipeline.run('INSERT INTO "pipeline_log" ("n") SELECT 0 FROM pg_sleep(0.2)', [])];
    for (let n = 1; n <= 20; n++) sent.push(pipeline.run('INSERT INTO "pipeline_log" ("n") VALUES ($1)', [n]));
    await Promise.all(sent);
    const { rows } = await admin.query('SELECT "n" FROM "pipeline_log" ORDER BY "at", "n"');
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: 21 }, (_, n) => n));
  });

  it('fails a statement alone: the ones sent after it commit', async () => {
    await admin.query('DELETE FROM "pipeline_log"');
    const first = pipeline.run('INSERT INTO "pipeline_log" ("n") VALUES ($1)', [1]);
    const duplicate = pipeline.run('INSERT INTO "pipeline_log" ("n") VALUES ($1)', [1]);
    const after = pipeline.run('INSERT INTO "pipeline_log" ("n") VALUES ($1)', [2]);
    await expect(first).resolves.toEqual([]);
    await expect(duplicate).rejects.toThrow(/duplicate key/);
    await expect(after).resolves.toEqual([]);
    const { rows } = await admin.query('SELECT "n" FROM "pipeline_log" ORDER BY "n"');
    expect(rows.map((row) => row.n)).toEqual([1, 2]);
  });

  it('sends a JSON parameter as the JSON text it is given', async () => {
    const json = JSON.stringify([{ n: 7, note: 'a "quoted" \\ note' }]);
    const rows = await pipeline.run('SELECT "n", "note" FROM json_populate_recordset(NULL::"pipeline_log", $1::json)', [json]);
    expect(rows).toEqual([{ n: 7, note: 'a "quoted" \\ note' }]);
  });

  it('reads the URL as the store\'s other connections do: parameters for Prisma or pg are not sent to the server', async () => {
    const url = new URL(db.url);
    url.searchParams.set('schema', 'public');
    url.searchParams.set('connection_limit', '5');
    const other = new PgPipeline(url.toString());
    try {
      expect(await other.run('SELECT current_database() AS "name"', [])).toEqual([{ name: url.pathname.slice(1) }]);
    } finally {
      await other.close();
    }
  });

  it('drained() waits for the statements sent before it, not for later ones', async () => {
    const slow = pipeline.run('SELECT pg_sleep(0.2)', []);
    const drained = pipeline.drained();
    const later = pipeline.run('SELECT pg_sleep(0.5)', []);
    await drained;
    // settled within the turn of the event loop drained() resolved in: it answered
    const stateOf = (query: Promise<unknown>) => Promise.race([query.then(() => 'answered'), new Promise((resolve) => setImmediate(() => resolve('under way')))]);
    expect(await stateOf(slow)).toBe('answered');
    expect(await stateOf(later)).toBe('under way');
    await later;
    await expect(pipeline.drained()).resolves.toBeUndefined();
  });
});

describe('the store writer on the pipelined connection', () => {
  const store = useTestStore('postgresql');

  it('pipelines unfenced batches, in order', async () => {
    expect(store().pipelinedWrites).toBeGreaterThan(1);
    const writer = new StoreWriter(store(), () => undefined, undefined, store().pipelinedWrites);
    // each write of the same task one batch after another: the last state must be the one stored
    const writes = Array.from({ length: 40 }, (_, n) => writer.writeBatch(async (tx) => tx.tasks.upsert(task('p:t', 'p', n, `state-${n}`))));
    await Promise.all(writes);
    expect((await store().tasks.find('p:t'))?.state).toBe('state-39');
  });

  it('hands a fenced batch over alone: a batch queued after it never commits before its second write', async () => {
    await store().procs.create({ ...samples.procs('mine', 0), owner: 'me' });
    await store().procs.create({ ...samples.procs('theirs', 0), owner: 'other' });
    const writer = new StoreWriter(store(), () => undefined, { owner: 'me', onLost: () => undefined }, store().pipelinedWrites);
    const blocker = new pg.Client({ connectionString: store.url() });
    await blocker.connect();
    try {
      // another session holds the row of 'theirs': the fence of the batch below waits for it
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM "procs" WHERE "id" = 'theirs' FOR UPDATE`);
      // a standalone write holds the writer while both parts queue: they go as one fenced batch
      let release!: () => void;
      const held = writer.write(() => new Promise<void>((resolve) => (release = resolve)));
      const mine = writer.writeBatch(async (tx) => tx.tasks.upsert(task('mine:t', 'mine', 1, 'second')), ['mine']);
      const theirs = writer.writeBatch(async (tx) => tx.tasks.upsert(task('theirs:t', 'theirs', 1)), ['theirs']);
      release();
      await held;
      await eventually(async () => (await blocker.query(`SELECT 1 FROM pg_stat_activity WHERE "application_name" = 'acts-writer' AND "wait_event_type" = 'Lock'`)).rowCount === 1, 'the fenced batch waits for the lock', 500);
      // queued while the fenced batch waits: an unfenced write of the same task, which must land last
      const last = writer.writeBatch(async (tx) => tx.tasks.upsert(task('mine:t', 'mine', 1, 'third')));
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      await blocker.query('COMMIT');
      await expect(mine).resolves.toBeUndefined();
      await expect(theirs).rejects.toMatchObject({ code: 'process.elsewhere' });
      await last;
      expect((await store().tasks.find('mine:t'))?.state).toBe('third');
      expect(await store().tasks.find('theirs:t')).toBeUndefined();
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
  });
});
