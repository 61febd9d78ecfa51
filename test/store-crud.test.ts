/**
 * The Collection contract on every backend (memory, SQLite, PostgreSQL): CRUD with the memory
 * store's errors, creation order, deleteWhere, and the SQL column mapping (JSON text, BigInt times).
 */
import { describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import type { Collection, CollectionName, QueryFilter, TaskRow } from '../server/store/contract/index.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { collectionNames, samples, task } from './helpers/store-samples.ts';

async function rejection(promise: Promise<unknown>): Promise<ActError> {
  try {
    await promise;
  } catch (err) {
    expect(ActError.is(err), String(err)).toBe(true);
    return err as ActError;
  }
  throw new Error('expected a rejection');
}

describe.each(BACKENDS)('%s store', (backend) => {
  const store = useTestStore(backend);
  const collection = (name: CollectionName) => store()[name] as unknown as Collection<{ id: string }>;
  const maker = (name: CollectionName) => samples[name] as (id: string, n: number) => { id: string };

  describe.each(collectionNames)('%s CRUD', (name) => {
    it('creates, finds, checks existence and rejects a duplicate', async () => {
      const col = collection(name);
      const make = maker(name);
      expect(await col.exists('r1')).toBe(false);
      expect(await col.find('r1')).toBeUndefined();
      await col.create(make('r1', 1));
      expect(await col.exists('r1')).toBe(true);
      expect(await col.find('r1')).toEqual(make('r1', 1));
      const err = await rejection(col.create(make('r1', 2)));
      expect(err.code).toBe('internal');
      expect(err.message).toBe(`${name} row 'r1' already exists`);
      expect(await col.find('r1')).toEqual(make('r1', 1));
    });

    it('updates an existing row and rejects a missing one', async () => {
      const col = collection(name);
      const make = maker(name);
      const err = await rejection(col.update(make('r1', 1)));
      expect(err.code).toBe('internal');
      expect(err.message).toBe(`${name} row 'r1' does not exist`);
      expect(await col.exists('r1')).toBe(false);
      await col.create(make('r1', 1));
      await col.update(make('r1', 2));
      expect(await col.find('r1')).toEqual(make('r1', 2));
    });

    it('upserts: inserts, then replaces', async () => {
      const col = collection(name);
      const make = maker(name);
      await col.upsert(make('r1', 1));
      expect(await col.find('r1')).toEqual(make('r1', 1));
      await col.upsert(make('r1', 2));
      expect(await col.find('r1')).toEqual(make('r1', 2));
      expect((await col.query()).count).toBe(1);
    });

    it('deletes and reports whether a row was deleted', async () => {
      const col = collection(name);
      const make = maker(name);
      await col.create(make('r1', 1));
      await col.create(make('r2', 1));
      expect(await col.delete('r1')).toBe(true);
      expect(await col.delete('r1')).toBe(false);
      expect(await col.exists('r1')).toBe(false);
      expect((await col.query()).rows.map((row) => row.id)).toEqual(['r2']);
    });
  });

  it('rejects a row without a string id', async () => {
    const col = store().tasks;
    expect((await rejection(col.create({ ...task('x', 'p1', 1), id: '' }))).message).toMatch(/tasks row needs a non-empty string id/);
    await rejection(col.upsert({ ...task('x', 'p1', 1), id: 7 } as unknown as TaskRow));
  });

  it('keeps a row in place on update and moves it to the end when re-created', async () => {
    const col = store().tasks;
    for (const id of ['a', 'b', 'c']) await col.create(task(id, 'p1', 1));
    await col.update(task('a', 'p1', 2));
    await col.upsert(task('b', 'p1', 2));
    expect((await col.query()).rows.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    await col.delete('a');
    await col.create(task('a', 'p1', 3));
    expect((await col.query()).rows.map((row) => row.id)).toEqual(['b', 'c', 'a']);
  });

  it('rejects an invalid query', async () => {
    const col = store().tasks;
    expect((await rejection(col.query({ offset: -1 }))).message).toMatch(/offset/);
    expect((await rejection(col.query({ limit: 0 }))).message).toMatch(/limit/);
    const bad = { type: 'and', exprs: [{ key: 'pid', op: 'in', value: [] }] } as unknown as QueryFilter;
    expect((await rejection(col.query({ filter: bad }))).message).toMatch(/unknown op 'in'/);
    expect((await rejection(col.deleteWhere(bad))).code).toBe('internal');
  });

  describe('deleteWhere', () => {
    it('deletes every match and returns the count', async () => {
      const col = store().tasks;
      for (let n = 0; n < 10; n++) await col.create(task(`t${n}`, n < 6 ? 'p1' : 'p2', n));
      const filter: QueryFilter = { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: 'p1' }, { key: 'timestamp', op: 'ge', value: 1_700_000_000_002 }] };
      expect(await col.deleteWhere(filter)).toBe(4);
      expect((await col.query()).rows.map((row) => row.id)).toEqual(['t0', 't1', 't6', 't7', 't8', 't9']);
      expect(await col.query({ filter })).toMatchObject({ count: 0 });
      expect(await col.deleteWhere(filter)).toBe(0);
    });

    it('works on or, on empty filters and leaves other collections alone', async () => {
      const col = store().tasks;
      for (let n = 0; n < 5; n++) await col.create(task(`t${n}`, 'p1', n));
      await store().procs.create(samples.procs('p1', 1));
      expect(await col.deleteWhere({ type: 'or', exprs: [{ key: 'tid', op: 'eq', value: 't1' }, { key: 'timestamp', op: 'gt', value: 1_700_000_000_003 }] })).toBe(2);
      expect(await col.deleteWhere({ type: 'or', exprs: [] })).toBe(0);
      expect(await col.deleteWhere({ type: 'and', exprs: [] })).toBe(3);
      expect(await col.query()).toMatchObject({ count: 0 });
      expect(await store().procs.exists('p1')).toBe(true);
    });
  });

  describe('column values', () => {
    it('round-trips every JSON column, including nested, empty, scalar and null values', async () => {
      const nested = { a: [1, 2.5, { b: null, c: 'x"y\\z' }], u: 'ünï😀', e: {}, l: [], t: true };
      const s = store();
      await s.procs.create({ ...samples.procs('p1', 1), env: nested, err: { ecode: 'E1', message: 'boom' } });
      await s.tasks.create({ ...task('t1', 'p1', 1), node_data: nested, data: { deep: nested }, err: { ecode: 'E', message: 'm' }, hooks: { created: [{ act: 'x' }] } });
      await s.tasks.create({ ...task('t2', 'p1', 1), node_data: 'a string', data: {}, hooks: [1, 'two'] });
      await s.tasks.create({ ...task('t3', 'p1', 1), node_data: 42, hooks: null });
      await s.messages.create({ ...samples.messages('m1', 1), model: { id: 'm', name: 'n', tag: 't' }, inputs: nested, outputs: { list: [nested] } });
      await s.events.create({ ...samples.events('e1', 1), params: nested });
      await s.events.create({ ...samples.events('e2', 1), params: null });
      await s.packages.create({ ...samples.packages('k1', 1), schema: nested, resources: [nested, 1, 'r'] });
      await s.ops.create({ ...samples.ops('o1', 1), options: nested });
      await s.ops.create({ ...samples.ops('o2', 2), options: null });

      expect((await s.procs.find('p1'))?.env).toEqual(nested);
      expect((await s.procs.find('p1'))?.err).toEqual({ ecode: 'E1', message: 'boom' });
      expect(await s.tasks.find('t1')).toMatchObject({ node_data: nested, data: { deep: nested }, err: { ecode: 'E', message: 'm' }, hooks: { created: [{ act: 'x' }] } });
      expect(await s.tasks.find('t2')).toMatchObject({ node_data: 'a string', data: {}, hooks: [1, 'two'], err: null });
      expect(await s.tasks.find('t3')).toMatchObject({ node_data: 42, hooks: null });
      expect(await s.messages.find('m1')).toMatchObject({ model: { id: 'm', name: 'n', tag: 't' }, inputs: nested, outputs: { list: [nested] } });
      expect((await s.events.find('e1'))?.params).toEqual(nested);
      expect((await s.events.find('e2'))?.params).toBeNull();
      expect(await s.packages.find('k1')).toMatchObject({ schema: nested, resources: [nested, 1, 'r'] });
      expect((await s.ops.find('o1'))?.options).toEqual(nested);
      expect(await s.ops.find('o2')).toEqual(samples.ops('o2', 2));
    });

    it('round-trips times above 2^31 and 2^32, integers and booleans', async () => {
      const s = store();
      const big = 2 ** 41 + 7; // beyond 32 bits
      const now = 1_765_432_109_876;
      await s.events.create({ ...samples.events('e1', 1), next_run: big, last_run: now, create_time: 2 ** 31, update_time: 2 ** 32 + 1, enabled: false, ver: 2 ** 31 - 1 });
      const row = await s.events.find('e1');
      expect(row).toMatchObject({ next_run: big, last_run: now, create_time: 2 ** 31, update_time: 2 ** 32 + 1, enabled: false, ver: 2 ** 31 - 1 });
      expect(typeof row?.next_run).toBe('number');
      expect(typeof row?.ver).toBe('number');
      expect(typeof row?.enabled).toBe('boolean');
      await s.tasks.create({ ...task('t1', 'p1', 1), start_time: Number.MAX_SAFE_INTEGER, end_time: -5 });
      expect(await s.tasks.find('t1')).toMatchObject({ start_time: Number.MAX_SAFE_INTEGER, end_time: -5 });
      const found = await s.events.query({ filter: { type: 'and', exprs: [{ key: 'next_run', op: 'gt', value: 2 ** 40 }] } });
      expect(found.rows.map((r) => r.id)).toEqual(['e1']);
    });
  });
});

describe.each(['sqlite', 'postgresql'] as const)('%s column mapping errors', (backend) => {
  const store = useTestStore(backend);

  it('rejects values a column cannot hold, naming the row and field', async () => {
    const s = store();
    await expect(s.tasks.create({ ...task('t1', 'p1', 1), start_time: 1.5 })).rejects.toThrow(/tasks row 't1': field 'start_time' must be an integer/);
    await expect(s.events.create({ ...samples.events('e1', 1), ver: 2 ** 31 })).rejects.toThrow(/field 'ver' must be a 32-bit integer/);
    await expect(s.tasks.create({ ...task('t1', 'p1', 1), name: null as unknown as string })).rejects.toThrow(/field 'name' is required/);
    await expect(s.tasks.create({ ...task('t1', 'p1', 1), sign: 1 } as unknown as TaskRow)).rejects.toThrow(/tasks has no column 'sign'/);
    expect(await s.tasks.exists('t1')).toBe(false);
  });

  it('names the row and column holding corrupt JSON, and still reads the other rows', async () => {
    const s = store();
    await s.tasks.create(task('t1', 'p1', 1));
    await s.tasks.create(task('t2', 'p1', 2));
    const raw = (s as unknown as { client: { $executeRawUnsafe(sql: string): Promise<number> } }).client;
    expect(await raw.$executeRawUnsafe(`UPDATE "tasks" SET "data" = '{oops' WHERE "id" = 't1'`)).toBe(1);
    await expect(s.tasks.find('t1')).rejects.toThrow(/^tasks row 't1': column 'data' holds invalid JSON/);
    await expect(s.tasks.query()).rejects.toMatchObject({ code: 'internal' });
    expect(await s.tasks.find('t2')).toEqual(task('t2', 'p1', 2));
    expect(await s.tasks.exists('t1')).toBe(true);
    expect(await s.tasks.delete('t1')).toBe(true);
  });
});
