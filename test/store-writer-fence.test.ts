/**
 * The store writer's fence on every backend (instances.ts, Store.writeOnlyBatch's guard): parts
 * merged into one transaction are written except those of a process another instance owns now,
 * which fail with `process.elsewhere` while the fence's listener hears their pids.
 */
import { describe, expect, it } from 'vitest';
import { StoreWriter } from '../server/runtime/store-writer.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { samples, task } from './helpers/store-samples.ts';

describe.each(BACKENDS)('%s store writer fence', (backend) => {
  const store = useTestStore(backend);

  it('drops only the parts of processes another instance owns, in a merged transaction', async () => {
    await store().procs.create({ ...samples.procs('mine', 0), owner: 'me' });
    await store().procs.create({ ...samples.procs('theirs', 0), owner: 'other' });
    const heard: string[][] = [];
    const writer = new StoreWriter(store(), () => undefined, { owner: 'me', onLost: (pids) => heard.push(pids) });
    // a standalone write holds the writer while three parts queue: they go as one transaction
    let release!: () => void;
    const held = writer.write(() => new Promise<void>((resolve) => (release = resolve)));
    const part = (pid: string, n: number) => writer.writeBatch(async (tx) => tx.tasks.upsert(task(`${pid}:t${n}`, pid, n)), [pid]);
    const written = [part('mine', 1), part('theirs', 2), part('mine', 3)];
    release();
    await held;
    const settled = await Promise.allSettled(written);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'process.elsewhere' });
    expect(heard).toEqual([['theirs']]);
    expect([writer.transactions, writer.parts]).toEqual([1, 3]);
    expect((await store().tasks.query()).rows.map((row) => row.id)).toEqual(['mine:t1', 'mine:t3']);
  });
});
