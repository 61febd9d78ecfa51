/**
 * What only the in-memory store does: private deep copies, dotted paths into nested values,
 * secondary indexes that must agree with a full scan, and a non-transactional batch. The
 * Collection contract itself runs on every backend in store-crud.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import { MemoryCollection, MemoryStore } from '../server/store/contract/index.ts';
import type { Query, QueryExpr, QueryFilter, TaskRow } from '../server/store/contract/index.ts';
import { collectionNames as names, samples, task } from './helpers/store-samples.ts';

async function rejection(promise: Promise<unknown>): Promise<ActError> {
  try {
    await promise;
  } catch (err) {
    expect(ActError.is(err)).toBe(true);
    return err as ActError;
  }
  throw new Error('expected a rejection');
}

describe.each(names)('MemoryStore.%s copies', (name) => {
  const setup = () => {
    const store = new MemoryStore();
    return { col: store[name] as unknown as MemoryCollection<{ id: string }>, make: samples[name] as (id: string, n: number) => { id: string } };
  };

  it('never shares objects with callers', async () => {
    const { col, make } = setup();
    const row = make('r1', 1) as Record<string, unknown>;
    await col.create(row as { id: string });
    row.extra = 'changed after create';
    const found = (await col.find('r1')) as Record<string, unknown>;
    found.extra = 'changed after find';
    const [queried] = (await col.query()).rows as Array<Record<string, unknown>>;
    queried.extra = 'changed after query';
    expect(await col.find('r1')).toEqual(make('r1', 1));
  });
});

describe('MemoryCollection', () => {
  it('rejects a row without a string id', async () => {
    const col = new MemoryCollection<{ id: string }>('things');
    const err = await rejection(col.create({ id: '' }));
    expect(err.message).toMatch(/things row needs a non-empty string id/);
    await rejection(col.upsert({ id: 7 } as unknown as { id: string }));
  });

  it('deep-copies nested values', async () => {
    const col = new MemoryStore().tasks;
    const row = task('p1:t1', 'p1', 1);
    await col.create(row);
    (row.data.list as number[]).push(99);
    const found = (await col.find('p1:t1')) as TaskRow;
    (found.data.list as number[]).push(100);
    expect((await col.find('p1:t1'))?.data).toEqual({ n: 1, list: [1] });
  });

  it('queries by a dotted path into a JSON field', async () => {
    const col = new MemoryStore().messages;
    for (let n = 0; n < 3; n++) await col.create(samples.messages(`m${n}`, n));
    const page = await col.query({ filter: { type: 'and', exprs: [{ key: 'model.tag', op: 'eq', value: 'tag1' }] } });
    expect(page.rows.map((row) => row.id)).toEqual(['m1']);
  });

  it('closes without error', async () => {
    await expect(new MemoryStore().close()).resolves.toBeUndefined();
  });

  it('runs a batch on itself, without rollback', async () => {
    const store = new MemoryStore();
    await store.batch(async (tx) => {
      expect(tx).toBe(store);
      await tx.ops.create(samples.ops('o1', 1));
    });
    await expect(
      store.batch(async (tx) => {
        await tx.ops.create(samples.ops('o2', 2));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.ops.query()).rows.map((row) => row.id)).toEqual(['o1', 'o2']);
  });
});

describe('deleteWhere on dotted paths', () => {
  it('deletes every match and returns the count', async () => {
    const col = new MemoryStore().tasks;
    for (let n = 0; n < 10; n++) await col.create(task(`t${n}`, n < 6 ? 'p1' : 'p2', n));
    const filter: QueryFilter = { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: 'p1' }, { key: 'data.n', op: 'ge', value: 2 }] };
    expect(await col.deleteWhere(filter)).toBe(4);
    expect((await col.query()).rows.map((row) => row.id)).toEqual(['t0', 't1', 't6', 't7', 't8', 't9']);
    expect(await col.query({ filter })).toMatchObject({ count: 0 });
    expect(await col.deleteWhere(filter)).toBe(0);
  });

  it('works on unindexed filters and on or', async () => {
    const col = new MemoryStore().tasks;
    for (let n = 0; n < 5; n++) await col.create(task(`t${n}`, 'p1', n));
    expect(await col.deleteWhere({ type: 'or', exprs: [{ key: 'tid', op: 'eq', value: 't1' }, { key: 'data.n', op: 'gt', value: 3 }] })).toBe(2);
    expect(await col.deleteWhere({ type: 'and', exprs: [] })).toBe(3);
    expect(await col.query()).toMatchObject({ count: 0 });
  });
});

describe('secondary indexes', () => {
  it('follows updates of an indexed field', async () => {
    const col = new MemoryStore().deliveries;
    await col.create(samples.deliveries('d1', 0));
    await col.create(samples.deliveries('d2', 0));
    await col.update({ ...samples.deliveries('d1', 1), status: 'acked' });
    const byStatus = async (status: string) =>
      (await col.query({ filter: { type: 'and', exprs: [{ key: 'status', op: 'eq', value: status }] } })).rows.map((row) => row.id);
    expect(await byStatus('created')).toEqual(['d2']);
    expect(await byStatus('acked')).toEqual(['d1']);
    await col.delete('d1');
    expect(await byStatus('acked')).toEqual([]);
  });

  it('gives the same answers as a full scan after random writes', async () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) % n);
    };
    type Row = { id: string; pid: string | null; state: string; n: number | string | null; tag?: { k: number } };
    const fields = ['pid', 'state', 'n', 'tag.k'];
    const indexed = new MemoryCollection<Row>('rows', fields);
    const scanned = new MemoryCollection<Row>('rows');
    const pids = ['p0', 'p1', 'p2', 'p3', null];
    const values = [0, 1, 2, '1', '2', null];
    const makeRow = (id: string): Row => {
      const row: Row = { id, pid: pids[random(5)], state: ['running', 'completed'][random(2)], n: values[random(6)] };
      if (random(2)) row.tag = { k: random(3) };
      return row;
    };
    for (let i = 0; i < 2000; i++) {
      const id = `r${random(300)}`;
      const action = random(4);
      if (action === 0) {
        const row = makeRow(id);
        const exists = await scanned.exists(id);
        if (!exists) {
          await indexed.create(row);
          await scanned.create(row);
        }
      } else if (action === 1) {
        const row = makeRow(id);
        await indexed.upsert(row);
        await scanned.upsert(row);
      } else if (action === 2) {
        expect(await indexed.delete(id)).toBe(await scanned.delete(id));
      } else if (await scanned.exists(id)) {
        const row = makeRow(id);
        await indexed.update(row);
        await scanned.update(row);
      }
    }

    const eq = (key: string, value: unknown): QueryExpr => ({ key, op: 'eq', value });
    const queries: Query[] = [];
    for (const key of fields) {
      for (const value of [...pids, 'running', 'completed', ...values, 'nope', { k: 1 }]) {
        queries.push({ filter: { type: 'and', exprs: [eq(key, value)] } });
        queries.push({ filter: { type: 'or', exprs: [eq(key, value)] } });
        queries.push({ filter: { type: 'and', exprs: [eq(key, value), eq('state', 'running')] }, order_by: ['-n'], offset: 3, limit: 7 });
        queries.push({ filter: { type: 'and', exprs: [eq(key, value), { type: 'or', exprs: [eq('pid', 'p1'), eq('n', 1)] }] } });
      }
    }
    queries.push({ filter: { type: 'and', exprs: [eq('pid', 'p1'), eq('pid', 'p2')] } });
    // oneOf (an `or` of eqs) reads the union of its buckets; an item without an index scans everything
    queries.push({ filter: { type: 'or', exprs: [eq('pid', 'p1'), eq('pid', 'p3'), eq('pid', null)] }, order_by: ['n'] });
    queries.push({ filter: { type: 'or', exprs: [eq('pid', 'p1'), eq('n', 1)] } });
    queries.push({ filter: { type: 'or', exprs: [eq('pid', 'p1'), { key: 'state', op: 'ne', value: 'running' }] } });
    queries.push({ filter: { type: 'and', exprs: [{ type: 'or', exprs: [eq('pid', 'p0'), eq('pid', 'p2')] }, eq('state', 'completed')] }, limit: 5 });
    queries.push({ filter: { type: 'or', exprs: [{ type: 'and', exprs: [eq('pid', 'p0'), eq('n', 2)] }, eq('tag.k', 1)] } });
    queries.push({ filter: { type: 'and', exprs: [eq('pid', 'p1'), eq('state', 'running'), eq('n', '1')] }, order_by: ['id'] });
    for (const query of queries) {
      expect(await indexed.query(query), JSON.stringify(query)).toEqual(await scanned.query(query));
    }
    expect((await indexed.query()).count).toBeGreaterThan(100);

    const filter: QueryFilter = { type: 'and', exprs: [eq('state', 'running'), eq('pid', 'p2')] };
    expect(await indexed.deleteWhere(filter)).toBe(await scanned.deleteWhere(filter));
    expect(await indexed.query()).toEqual(await scanned.query());
  });
});
