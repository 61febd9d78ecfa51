/**
 * The store writer's saturation bound (spec 5.1, 5.14): the hysteresis of the writer itself
 * (on at the cap, off at half of it), then an engine whose store transactions wait at a gate the
 * test opens — on memory and on a SQLite file — so the writer backs up deterministically: new
 * starts, trigger fires and client actions are refused with a retryable `engine.busy`, the health
 * figures say so, opening the gate drains it and everything accepted before completes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import { ActError } from '../server/engine/errors.ts';
import type { EngineEvents } from '../server/runtime/events.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { Store, WriteGuard } from '../server/store/contract/types.ts';
import { StoreWriter, type WriterSaturation } from '../server/runtime/store-writer.ts';
import { useTestStore } from './helpers/databases.ts';
import { borrowed } from './helpers/harness.ts';

/** A gate store transactions wait at while it is closed. */
class Gate {
  private opened: Promise<void> = Promise.resolve();
  private release: () => void = () => {};

  close(): void {
    this.opened = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  /** `store` whose `batch` and `writeOnlyBatch` (the writer's) first wait for the gate (reads and standalone writes pass). */
  wrap(store: Store): Store {
    const gate = this;
    const writeOnly = store.writeOnlyBatch?.bind(store);
    return Object.create(store, {
      batch: {
        value: async (fn: (tx: Store) => Promise<void>) => {
          await gate.opened;
          return store.batch(fn);
        },
      },
      writeOnlyBatch: {
        value: writeOnly
          ? async (fn: (tx: Store) => Promise<void>, guard?: WriteGuard) => {
              await gate.opened;
              return writeOnly(fn, guard);
            }
          : undefined,
      },
    }) as Store;
  }
}

const BUSY = { code: 'engine.busy', details: { reason: 'store_writer_saturated', retryable: true } };

function busyError(err: unknown): ActError {
  expect(ActError.is(err)).toBe(true);
  return err as ActError;
}

describe('StoreWriter saturation (hysteresis)', () => {
  it('turns on when the depth reaches the cap, stays on above half of it, turns off at half the cap', async () => {
    const writer = new StoreWriter(new MemoryStore(), () => undefined);
    const changes: WriterSaturation[] = [];
    writer.limit(4, (s) => changes.push(s));
    const releases: Array<() => void> = [];
    const write = () => writer.write(() => new Promise<void>((resolve) => releases.push(resolve)));

    const written = [write(), write(), write()];
    expect(writer.saturated).toBe(false);
    expect(() => writer.admit()).not.toThrow();
    written.push(write());
    expect(writer).toMatchObject({ depth: 4, saturated: true, cap: 4 });
    expect(changes).toEqual([{ saturated: true, depth: 4, cap: 4 }]);
    expect(() => writer.admit()).toThrow(/the store writer is saturated \(4 writes waiting, cap 4\); retry shortly/);
    try {
      writer.admit();
    } catch (err) {
      expect(busyError(err)).toMatchObject({ ...BUSY, details: { ...BUSY.details, depth: 4, cap: 4 } });
    }

    releases[0]();
    await written[0];
    expect(writer).toMatchObject({ depth: 3, saturated: true });
    releases[1]();
    await written[1];
    expect(writer).toMatchObject({ depth: 2, saturated: false });
    expect(changes.at(-1)).toEqual({ saturated: false, depth: 2, cap: 4 });

    // below the cap it stays open (hysteresis), at the cap it closes again
    written.push(write());
    expect(writer).toMatchObject({ depth: 3, saturated: false });
    written.push(write());
    expect(writer).toMatchObject({ depth: 4, saturated: true });
    for (let i = 2; i < 6; i++) {
      releases[i]();
      await written[i];
    }
    expect(writer).toMatchObject({ depth: 0, saturated: false });
    expect(changes.map((c) => c.saturated)).toEqual([true, false, true, false]);
  });

  it('counts every job batch of a merged transaction until it is written', async () => {
    const gate = new Gate();
    gate.close();
    const writer = new StoreWriter(gate.wrap(new MemoryStore()), () => undefined);
    writer.limit(4);
    const parts = [1, 2, 3, 4].map(() => writer.writeBatch(async () => undefined));
    expect(writer).toMatchObject({ depth: 4, saturated: true });
    gate.open();
    await Promise.all(parts);
    await writer.flush();
    expect(writer).toMatchObject({ depth: 0, saturated: false, highWater: 4 });
  });

  it('refuses a cap that is not a positive integer', () => {
    const writer = new StoreWriter(new MemoryStore(), () => undefined);
    expect(() => writer.limit(0)).toThrow(/store_writer_cap must be a positive integer/);
    expect(() => writer.limit(2.5)).toThrow(ActError);
  });
});

const QUICK = `id: quick
on:
  - { id: go, uses: acts.event.manual }
steps:
  - id: s1
    acts:
      - { uses: acts.transform.set, key: set, params: { done: true } }
  - id: s2
    acts:
      - { uses: acts.transform.set, key: again, params: { twice: true } }
`;

const WAIT = `id: wait
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: ask }
`;

const CAP = 8;

function next<K extends keyof EngineEvents>(engine: Engine, event: K, match: (payload: EngineEvents[K]) => boolean): Promise<EngineEvents[K]> {
  return new Promise((resolve) => {
    const off = engine.on(event, (payload) => {
      if (!match(payload)) return;
      off();
      resolve(payload);
    });
  });
}

describe.each(['memory', 'sqlite'] as const)('an engine whose store writer saturates (%s)', (backend) => {
  const store = useTestStore(backend);
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close();
  });

  it('refuses new work with engine.busy while saturated, drains, accepts again at half the cap; nothing accepted is lost', async () => {
    const gate = new Gate();
    const engine = await Engine.create({ store: gate.wrap(borrowed(store())), autoTick: false, storeWriterCap: CAP });
    engines.push(engine);
    await engine.models.deploy(QUICK);
    await engine.models.deploy(WAIT);
    const waiting = await engine.procs.start('wait');
    await engine.idle();
    const ask = (await engine.tasks.list(waiting.pid)).find((t) => t.key === 'ask')!;
    expect(engine.health().writer).toEqual({ depth: 0, highWatermark: expect.any(Number), saturated: false, cap: CAP });

    gate.close();
    const saturated = next(engine, 'writerSaturation', (s) => s.saturated);
    // each start queues at least its own batch; none can be written while the gate is closed
    const accepted = Array.from({ length: CAP }, () => engine.procs.start('quick'));
    expect(await saturated).toMatchObject({ saturated: true, cap: CAP });

    const health = engine.health().writer;
    expect(health).toMatchObject({ saturated: true, cap: CAP });
    expect(health.depth).toBeGreaterThanOrEqual(CAP);
    expect(engine.stats().writerSaturated).toBe(true);
    const refusals = [
      engine.procs.start('quick'),
      engine.triggers.start('quick:go'),
      engine.act.complete(waiting.pid, ask.tid),
      engine.procs.abort(waiting.pid),
    ];
    for (const refusal of refusals) {
      const err = busyError(await refusal.catch((e: unknown) => e));
      expect(err).toMatchObject({ ...BUSY, details: { ...BUSY.details, cap: CAP } });
      expect(err.message).toMatch(/^the store writer is saturated \(\d+ writes waiting, cap 8\); retry shortly$/);
    }

    const drained = next(engine, 'writerSaturation', (s) => !s.saturated);
    gate.open();
    expect((await drained).depth).toBeLessThanOrEqual(CAP / 2);
    const started = await Promise.all(accepted);
    await engine.idle();
    expect(engine.health().writer).toMatchObject({ depth: 0, saturated: false });
    for (const proc of started) expect((await engine.procs.wait(proc.pid)).state).toBe('completed');
    const again = await engine.procs.start('quick');
    await engine.act.complete(waiting.pid, ask.tid);
    expect((await engine.procs.wait(again.pid)).state).toBe('completed');
    expect((await engine.procs.wait(waiting.pid)).state).toBe('completed');
    await engine.idle();
    const rows = await engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'mid', op: 'eq', value: 'quick' }] } });
    expect(rows.rows.map((r) => r.state)).toEqual(Array(CAP + 1).fill('completed'));
  });
});
