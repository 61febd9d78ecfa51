/**
 * Store.batch on every backend: reads inside a batch see its writes (queued upserts included),
 * nested batches join; on SQLite and PostgreSQL a batch is one transaction: all or nothing, while
 * operations on the outer store neither wait forever nor join it. The store writer's write-only
 * batches, and on PostgreSQL their writes gathered ahead of them (Store.gatherWrites).
 */
import { describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import type { Store } from '../server/store/contract/index.ts';
import { UNHELD_UNDATED } from '../server/store/contract/inbox.ts';
import type { AuditRow } from '../server/store/server-rows.ts';
import { BACKENDS, SQL_BACKENDS, createTestDatabase, useTestStore } from './helpers/databases.ts';
import { openStore } from '../server/store/open-store.ts';
import { samples, task } from './helpers/store-samples.ts';
import { countStatements, statementCount } from '../bench/peers/pg-costs.ts';

/** A row of one of the server's tables (server-rows.ts). */
const AUDIT_ROW: AuditRow = { id: 'a1', time: 1, actor: 'u1', actor_name: 'ann', action: 'proc.start', target: 'p1', detail: { n: 1 }, result: 'ok' };

const ids = async (store: Store): Promise<string[]> => (await store.tasks.query()).rows.map((row) => row.id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('%s batch', (backend) => {
  const store = useTestStore(backend);

  it('commits every write and lets the batch read its own writes', async () => {
    await store().tasks.create(task('old', 'p1', 0));
    await store().batch(async (tx) => {
      await tx.tasks.upsert(task('a', 'p1', 1));
      await tx.tasks.upsert(task('b', 'p2', 2));
      await tx.tasks.upsert(task('a', 'p1', 3)); // a later upsert of a queued row wins
      expect(await tx.tasks.find('a')).toEqual(task('a', 'p1', 3));
      const page = await tx.tasks.query({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: 'p1' }] } });
      expect(page.rows.map((row) => row.id)).toEqual(['old', 'a']);
      await tx.tasks.upsert(task('old', 'p1', 4));
      await tx.ops.create(samples.ops('o1', 1));
      await tx.ops.update({ ...samples.ops('o1', 1), status: 'done' });
      await tx.procs.upsert(samples.procs('p1', 1));
      await tx.tasks.delete('b');
      await tx.batch(async (inner) => inner.tasks.upsert(task('c', 'p1', 5)));
    });
    expect(await ids(store())).toEqual(['old', 'a', 'c']);
    expect(await store().tasks.find('old')).toEqual(task('old', 'p1', 4));
    expect((await store().ops.find('o1'))?.status).toBe('done');
    expect(await store().procs.find('p1')).toEqual(samples.procs('p1', 1));
  });

  it("reaches the server's tables in a batch (Store.serverCollection): their rows land with the batch's", async () => {
    expect(store().serverCollection?.('procs')).toBeUndefined();
    expect(store().serverCollection?.('no-such-table')).toBeUndefined();
    await store().batch(async (tx) => {
      await tx.serverCollection!('audit')!.upsert(AUDIT_ROW);
      await tx.tasks.upsert(task('a', 'p1', 1));
    });
    expect(await store().serverCollection!('audit')!.find(AUDIT_ROW.id)).toEqual(AUDIT_ROW);
    expect(await store().audit.find(AUDIT_ROW.id)).toEqual(AUDIT_ROW);
    expect(await ids(store())).toEqual(['a']);
  });

  it('passes on the rejection of fn', async () => {
    await expect(
      store().batch(async () => {
        throw new ActError('action.refused', 'no');
      }),
    ).rejects.toMatchObject({ code: 'action.refused', message: 'no' });
  });

  it('reports a duplicate create and a missing update inside a batch, which may go on', async () => {
    await store().tasks.create(task('a', 'p1', 1));
    await store().batch(async (tx) => {
      await expect(tx.tasks.create(task('a', 'p1', 2))).rejects.toThrow("tasks row 'a' already exists");
      await expect(tx.tasks.update(task('zz', 'p1', 2))).rejects.toThrow("tasks row 'zz' does not exist");
      await tx.tasks.create(task('b', 'p1', 3));
    });
    expect(await ids(store())).toEqual(['a', 'b']);
    expect(await store().tasks.find('a')).toEqual(task('a', 'p1', 1));
  });

  it('writes thousands of rows in one batch', async () => {
    const n = 3_000;
    await store().batch(async (tx) => {
      for (let i = 0; i < n; i++) await tx.tasks.upsert(task(`t${i}`, `p${i % 7}`, i));
      for (let i = 0; i < 200; i++) await tx.deliveries.create(samples.deliveries(`d${i}`, i));
    });
    expect((await store().tasks.query({ limit: 1 })).count).toBe(n);
    expect(await store().tasks.find('t2999')).toEqual(task('t2999', 'p3', 2999));
    expect((await store().tasks.query({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: 'p0' }] } })).count).toBe(429);
    expect((await store().deliveries.query({ order_by: ['-retry_times'], limit: 1 })).rows[0].id).toBe('d199');
    expect((await store().tasks.query({ offset: 2_998 })).rows.map((row) => row.id)).toEqual(['t2998', 't2999']);
  });
});

describe.each(SQL_BACKENDS)('%s batch transaction', (backend) => {
  const store = useTestStore(backend);

  it('leaves nothing written when fn throws after some writes', async () => {
    await store().tasks.create(task('keep', 'p1', 0));
    await store().ops.create(samples.ops('o1', 1));
    await expect(
      store().batch(async (tx) => {
        await tx.tasks.create(task('a', 'p1', 1));
        await tx.tasks.upsert(task('b', 'p1', 2));
        await tx.tasks.upsert(task('keep', 'p1', 9));
        await tx.ops.update({ ...samples.ops('o1', 1), status: 'done' });
        expect(await tx.tasks.exists('b')).toBe(true);
        await tx.procs.create(samples.procs('p1', 1));
        await tx.messages.upsert(samples.messages('m1', 1));
        throw new Error('crash after the writes');
      }),
    ).rejects.toThrow('crash after the writes');
    expect(await ids(store())).toEqual(['keep']);
    expect(await store().tasks.find('keep')).toEqual(task('keep', 'p1', 0));
    expect((await store().ops.find('o1'))?.status).toBe('pending');
    expect(await store().procs.exists('p1')).toBe(false);
    expect(await store().messages.exists('m1')).toBe(false);
  });

  it("rolls a server table's rows back with the batch", async () => {
    await expect(
      store().batch(async (tx) => {
        await tx.serverCollection!('audit')!.upsert(AUDIT_ROW);
        await tx.tasks.upsert(task('a', 'p1', 1));
        throw new Error('crash after the writes');
      }),
    ).rejects.toThrow('crash after the writes');
    expect(await store().audit.exists(AUDIT_ROW.id)).toBe(false);
    expect(await ids(store())).toEqual([]);
  });

  it('keeps outer operations out of an open batch: they wait, and survive its rollback', async () => {
    let started!: () => void;
    const open = new Promise<void>((resolve) => (started = resolve));
    const batch = store().batch(async (tx) => {
      await tx.tasks.create(task('inside', 'p1', 1));
      started();
      await sleep(50);
      throw new Error('roll back');
    });
    await open;
    const outer = store().tasks.create(task('outside', 'p1', 2)); // another caller, outside the batch
    await expect(batch).rejects.toThrow('roll back');
    await outer;
    expect(await ids(store())).toEqual(['outside']);
  });

  it('refuses the outer store inside its own batch and the batch store after the batch', async () => {
    let kept: Store | undefined;
    await expect(
      store().batch(async (tx) => {
        kept = tx;
        await store().tasks.find('x');
      }),
    ).rejects.toThrow('the outer store was used inside its own batch: use the store passed to batch(fn)');
    await store().batch(async (tx) => {
      kept = tx;
    });
    await expect((kept as Store).tasks.find('x')).rejects.toThrow('this batch store was used after its batch ended');
    await expect((kept as Store).tasks.upsert(task('late', 'p1', 1))).rejects.toThrow('after its batch ended');
  });

  it('runs concurrent batches without losing writes', async () => {
    await Promise.all(
      [0, 1, 2, 3].map((k) =>
        store().batch(async (tx) => {
          for (let i = 0; i < 50; i++) await tx.tasks.upsert(task(`b${k}-${i}`, `p${k}`, i));
          await sleep(5);
          await tx.ops.create(samples.ops(`o${k}`, k));
        }),
      ),
    );
    expect((await store().tasks.query({ limit: 1 })).count).toBe(200);
    expect((await store().ops.query()).count).toBe(4);
  });
});

const owned = (id: string, owner: string | null) => ({ ...samples.procs(id, 0), owner });
/** A write-only batch's work: a process, a task and a message of `pid`. */
const upserts = (pid: string, n: number) => async (tx: Store) => {
  await tx.procs.upsert({ ...owned(pid, 'me'), name: `v${n}` });
  await tx.tasks.upsert(task(`${pid}:t`, pid, n));
  await tx.messages.upsert(samples.messages(`${pid}:m${n}`, n));
};

describe.each(SQL_BACKENDS)('%s write-only batch (the store writer\'s)', (backend) => {
  const store = useTestStore(backend);
  const writeOnly = (fn: (tx: Store) => Promise<void>, guard?: { owner: string; pids: string[] }) => store().writeOnlyBatch!(fn, guard);

  it('gathers writes ahead of their batch on PostgreSQL only (SQLite hands its batches to its write thread)', () => {
    expect([store().gatherWrites, store().writeGathered].map(Boolean)).toEqual(backend === 'postgresql' ? [true, true] : [false, false]);
  });

  it('writes the upserts of several tables, fenced or not', async () => {
    expect(await writeOnly(upserts('p1', 1))).toEqual([]);
    await store().procs.create(owned('p2', null));
    expect(await writeOnly(upserts('p2', 2), { owner: 'me', pids: ['p1', 'p2', 'p3'] })).toEqual([]);
    expect((await store().procs.find('p1'))?.name).toBe('v1');
    expect((await store().procs.find('p2'))?.name).toBe('v2');
    expect(await ids(store())).toEqual(['p1:t', 'p2:t']);
    expect(await store().messages.exists('p2:m2')).toBe(true);
  });

  it('writes nothing when the fence finds a process of another instance, and names it', async () => {
    await store().procs.create(owned('mine', 'me'));
    await store().procs.create(owned('theirs', 'other'));
    const both = async (tx: Store) => {
      await upserts('mine', 5)(tx);
      await upserts('theirs', 5)(tx);
    };
    expect(await writeOnly(both, { owner: 'me', pids: ['mine', 'theirs'] })).toEqual(['theirs']);
    // also when the batch sent a statement of its own before its upserts (a transaction is open)
    const deleting = async (tx: Store) => {
      await tx.procs.delete('mine');
      await both(tx);
    };
    expect(await writeOnly(deleting, { owner: 'me', pids: ['mine', 'theirs'] })).toEqual(['theirs']);
    expect(await store().procs.find('theirs')).toEqual(owned('theirs', 'other'));
    expect(await store().procs.find('mine')).toEqual(owned('mine', 'me'));
    expect(await ids(store())).toEqual([]);
    expect((await store().messages.query()).count).toBe(0);
    // without the lost process the same batch writes
    expect(await writeOnly(deleting, { owner: 'me', pids: ['mine'] })).toEqual([]);
    expect((await store().procs.find('mine'))?.name).toBe('v5');
  });

  it("deletes the inbox rows of tasks that left it with its upserts: a row it writes again stays (PostgreSQL: in its one statement)", async () => {
    const row = (pid: string, tid: string, principal: string) => ({ id: `${pid}:${tid}:${principal}`, pid, tid, mid: 'm1', principal, start_time: 1, ...UNHELD_UNDATED });
    await store().procs.create(owned('p1', 'me'));
    await store().procs.create(owned('p2', 'other'));
    for (const r of [row('p1', 'a', ''), row('p1', 'a', 'role:clerk'), row('p1', 'b', ''), row('p1', 'c', '')]) await store().inbox.create(r);
    const leaving = async (tx: Store) => {
      await upserts('p1', 1)(tx);
      await tx.queries.deleteInboxOf([
        { pid: 'p1', tid: 'a' },
        { pid: 'p1', tid: 'b' },
      ]);
      // b waits again (written anew in the same batch): its row stays
      await tx.inbox.upsert(row('p1', 'b', ''));
    };
    // refused by the fence: nothing goes
    expect(await writeOnly(async (tx) => { await leaving(tx); await upserts('p2', 1)(tx); }, { owner: 'me', pids: ['p1', 'p2'] })).toEqual(['p2']);
    expect((await store().inbox.query()).count).toBe(4);
    countStatements();
    const before = statementCount();
    expect(await writeOnly(leaving, { owner: 'me', pids: ['p1'] })).toEqual([]);
    if (backend === 'postgresql') expect(statementCount() - before).toBe(1);
    expect((await store().inbox.query()).rows.map((r) => r.id).sort()).toEqual(['p1:b:', 'p1:c:']);
  });

  it('leaves nothing written when fn rejects, and passes the rejection on', async () => {
    await store().procs.create(owned('p1', 'me'));
    const failing = (statementFirst: boolean) => async (tx: Store) => {
      if (statementFirst) await tx.tasks.delete('none');
      await upserts('p1', 7)(tx);
      throw new Error(`failed (${statementFirst ? 'in a transaction' : 'before any statement'})`);
    };
    await expect(writeOnly(failing(false), { owner: 'me', pids: ['p1'] })).rejects.toThrow('before any statement');
    await expect(writeOnly(failing(true), { owner: 'me', pids: ['p1'] })).rejects.toThrow('in a transaction');
    expect(await store().procs.find('p1')).toEqual(owned('p1', 'me'));
    expect(await ids(store())).toEqual([]);
  });
});

describe('postgresql write-only batch gathered ahead (Store.gatherWrites, writeGathered)', () => {
  const store = useTestStore('postgresql');
  const gather = async (fn: (tx: Store) => Promise<void>) => (await store().gatherWrites!(fn))!;

  it('writes gathered parts in one statement as writeOnlyBatch writes their fns one after another, in the order given', async () => {
    await store().procs.create(owned('p1', 'me'));
    // gathered in one order, written in the other: the insertion order (`seq`) is the written one
    const second = await gather(async (tx) => {
      await upserts('p2', 2)(tx);
      await tx.procs.upsert({ ...owned('p1', 'me'), name: 'again' }); // p1 again: the later data wins
    });
    const first = await gather(upserts('p1', 1));
    countStatements();
    const before = statementCount();
    expect(await store().writeGathered!([first, second], { owner: 'me', pids: ['p1', 'p2'] })).toEqual([]);
    expect(statementCount() - before).toBe(1);
    expect((await store().procs.find('p1'))?.name).toBe('again');
    expect((await store().procs.find('p2'))?.name).toBe('v2');
    expect(await ids(store())).toEqual(['p1:t', 'p2:t']);
    expect((await store().messages.query()).rows.map((row) => row.id)).toEqual(['p1:m1', 'p2:m2']);
  });

  it('is fenced like writeOnlyBatch: a process of another instance stops all of it, the rest goes again', async () => {
    await store().procs.create(owned('mine', 'me'));
    await store().procs.create(owned('theirs', 'other'));
    const gathered = [await gather(upserts('mine', 3)), await gather(upserts('theirs', 3))];
    expect(await store().writeGathered!(gathered, { owner: 'me', pids: ['mine', 'theirs'] })).toEqual(['theirs']);
    expect(await ids(store())).toEqual([]);
    expect(await store().writeGathered!(gathered.slice(0, 1), { owner: 'me', pids: ['mine'] })).toEqual([]);
    expect((await store().procs.find('mine'))?.name).toBe('v3');
    expect(await store().procs.find('theirs')).toEqual(owned('theirs', 'other'));
  });

  it("deletes the inbox rows of tasks that left it, across gathered parts: a row written again stays", async () => {
    const row = (tid: string) => ({ id: `p1:${tid}:`, pid: 'p1', tid, mid: 'm1', principal: '', start_time: 1, ...UNHELD_UNDATED });
    for (const tid of ['a', 'b', 'c']) await store().inbox.create(row(tid));
    const leaving = await gather(async (tx) => {
      await upserts('p1', 1)(tx);
      await tx.queries.deleteInboxOf([{ pid: 'p1', tid: 'a' }, { pid: 'p1', tid: 'b' }]);
    });
    const waitingAgain = await gather(async (tx) => tx.inbox.upsert(row('b')));
    expect(await store().writeGathered!([leaving, waitingAgain])).toEqual([]);
    expect((await store().inbox.query()).rows.map((r) => r.id).sort()).toEqual(['p1:b:', 'p1:c:']);
  });

  it('gathers nothing — and writes nothing — from a fn that fails or needs its transaction', async () => {
    expect(
      await store().gatherWrites!(async (tx) => {
        await upserts('p1', 1)(tx);
        throw new Error('failed');
      }),
    ).toBeUndefined();
    expect(await store().gatherWrites!(async (tx) => tx.notify!('acts_test', ''))).toBeUndefined();
    expect(await store().gatherWrites!(async (tx) => void (await tx.tasks.delete('p1:t')))).toBeUndefined();
    expect(await store().gatherWrites!(async (tx) => void (await tx.procs.find('p1')))).toBeUndefined();
    expect((await store().procs.query()).count).toBe(0);
    expect(await ids(store())).toEqual([]);
  });
});

describe.each(SQL_BACKENDS)('%s store closing', (backend) => {
  it('refuses operations after close', async () => {
    const db = await createTestDatabase(backend);
    try {
      const store = await openStore(db.url);
      await store.tasks.create(task('a', 'p1', 1));
      await store.close();
      await store.close(); // idempotent
      await expect(store.tasks.find('a')).rejects.toThrow(`the ${backend} store is closed`);
      await expect(store.batch(async () => undefined)).rejects.toThrow('is closed');
      const again = await openStore(db.url);
      expect(await again.tasks.find('a')).toEqual(task('a', 'p1', 1));
      await again.close();
    } finally {
      await db.drop();
    }
  });
});
