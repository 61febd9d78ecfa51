/**
 * Schedule triggers (spec 5.7) and timer health (5.10), driven by an injected clock: a
 * once-per-second schedule fires once per tick and advances; a failing start still advances; a
 * disabled trigger stays quiet, also when disabled during its fire, and an archived model's rests; a redeploy never skips a due
 * fire; a failing store degrades the loop, which recovers when it returns. (The schedule timer
 * in real time: schedule-timer.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { EngineOptions } from '../server/runtime/engine.ts';
import type { EventRow, Store } from '../server/store/contract/types.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const EVERY_SECOND = `
id: ticking
inputs_schema: { type: object, required: [who], properties: { who: { type: string } } }
on:
  - { id: each, uses: acts.event.schedule, cron: '* * * * * *', params: { who: cron } }
steps: [ { id: s1 } ]
`;

describe.each(BACKENDS)('schedule triggers on %s', (backend) => {
  const store = useTestStore(backend);
  const harness = (options: EngineOptions = {}) => createHarness({ store: borrowed(store()), ...options });

  it('fire once per due tick and advance last_run / next_run', async () => {
    h = await harness();
    h.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    await h.deploy(EVERY_SECOND);
    const armed = await h.engine.triggers.get('ticking:each');
    expect(armed.next_run).toBe(Date.UTC(2026, 10, 29, 12, 0, 1));
    for (let i = 1; i <= 3; i++) await h.tick(1000);
    const procs = await h.engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'mid', op: 'eq', value: 'ticking' }] } });
    expect(procs.count).toBe(3);
    const row = await h.engine.triggers.get('ticking:each');
    expect(row.last_run).toBe(Date.UTC(2026, 10, 29, 12, 0, 3));
    expect(row.next_run).toBeGreaterThan(row.last_run);
    // a tick that comes late fires once, not once per missed second
    await h.tick(10_000);
    expect((await h.engine.procs.list()).count).toBe(4);
  });

  it("an archived model's schedule starts nothing and warns of nothing; un-archived, it fires again", async () => {
    const warnings: string[] = [];
    h = await harness({ logger: { debug() {}, info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
    h.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    await h.deploy(EVERY_SECOND);
    await h.engine.models.setArchived('ticking', true);
    for (let i = 1; i <= 3; i++) await h.tick(1000);
    expect((await h.engine.procs.list()).count).toBe(0);
    // (on PostgreSQL the injected clock also lapses the instance's lease, which is told)
    expect(warnings.filter((m) => m.includes('schedule'))).toEqual([]);
    // it rests, advancing: un-archived, it fires at its next due time, once
    expect((await h.engine.triggers.get('ticking:each')).last_run).toBe(Date.UTC(2026, 10, 29, 12, 0, 3));
    await h.engine.models.setArchived('ticking', false);
    await h.tick(1000);
    expect((await h.engine.procs.list()).count).toBe(1);
  });

  it('a start that fails still advances the schedule; a disabled trigger does not fire', async () => {
    h = await harness();
    h.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    await h.deploy(EVERY_SECOND.replace('params: { who: cron }', 'params: { who: 42 }'));
    await h.tick(1000);
    expect((await h.engine.procs.list()).count).toBe(0);
    const row = await h.engine.triggers.get('ticking:each');
    expect(row.last_run).toBe(Date.UTC(2026, 10, 29, 12, 0, 1));
    expect(row.next_run).toBe(Date.UTC(2026, 10, 29, 12, 0, 2));
    await h.engine.triggers.setEnabled('ticking:each', false);
    await h.tick(1000);
    expect((await h.engine.triggers.get('ticking:each')).last_run).toBe(Date.UTC(2026, 10, 29, 12, 0, 1));
  });

  it('a redeploy keeps a pending fire: a due one fires at the next pass, whatever the new cron; a changed cron not due yet is armed from now', async () => {
    const at = (min: number, sec: number) => Date.UTC(2026, 10, 29, 12, min, sec);
    const every20s = EVERY_SECOND.replace("'* * * * * *'", "'*/20 * * * * *'");
    const nextRun = async () => (await h!.engine.triggers.get('ticking:each')).next_run;
    /** A pass now fires the kept due time: `count` processes so far, then the row is armed at `next`. */
    const passFires = async (count: number, next: number) => {
      await h!.tick(0);
      expect((await h!.engine.procs.list()).count).toBe(count);
      expect(await nextRun()).toBe(next);
    };
    h = await harness();
    h.clock.set(at(0, 0));
    await h.deploy(every20s);
    expect(await nextRun()).toBe(at(0, 20));
    // due at 12:00:20, not fired yet (the pass comes late): a redeploy at 12:00:25 keeps it
    h.clock.set(at(0, 25));
    await h.deploy(every20s.replace('who: cron', 'who: again'));
    expect(await nextRun()).toBe(at(0, 20));
    await passFires(1, at(0, 40));
    // the same cron, not due: kept
    await h.tick(5000);
    await h.deploy(every20s);
    expect(await nextRun()).toBe(at(0, 40));
    // a changed cron, not due: armed from now
    await h.deploy(every20s.replace("'*/20 * * * * *'", "'0 */5 * * * *'"));
    expect(await nextRun()).toBe(at(5, 0));
    // a changed cron (or timezone) while a fire is due: the due fire is kept, then the new cron runs it
    h.clock.set(at(5, 3));
    await h.deploy(every20s.replace("'*/20 * * * * *'", "'*/20 * * * * *', timezone: UTC"));
    expect(await nextRun()).toBe(at(5, 0));
    await passFires(2, at(5, 20));
  });

  it('a pass that meets the engine closing leaves the rows it did not fire due', async () => {
    // the engine closes right after the pass advanced its first row
    let closing: Promise<void> | undefined;
    const view = borrowed(store());
    const events = Object.create(view.events, {
      update: {
        value: async (row: EventRow) => {
          await view.events.update(row);
          closing ??= h!.engine.close();
        },
      },
    }) as Store['events'];
    h = await createHarness({ store: Object.create(view, { events: { value: events } }) as Store });
    h.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    await h.deploy(EVERY_SECOND);
    await h.deploy(EVERY_SECOND.replace('id: ticking', 'id: second'));
    const due = Date.UTC(2026, 10, 29, 12, 0, 1);
    h.clock.advance(1000);
    await h.engine.tick();
    await closing;
    const rows = await Promise.all(['ticking:each', 'second:each'].map((id) => store().events.find(id)));
    expect(rows.map((row) => row?.next_run).sort()).toEqual([due, due + 1000]);
  });

  it('a trigger disabled while its fire is under way stays disabled', async () => {
    // the trigger is disabled right after the pass read it as due
    const view = borrowed(store());
    const queries = {
      ...view.queries,
      dueSchedules: async (now: number, limit: number) => {
        const due = await view.queries.dueSchedules(now, limit);
        for (const row of due) await view.events.update({ ...row, enabled: false });
        return due;
      },
    };
    h = await createHarness({ store: Object.create(view, { queries: { value: queries } }) as Store });
    h.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    await h.deploy(EVERY_SECOND);
    await h.tick(1000);
    expect((await h.engine.procs.list()).count).toBe(1);
    expect(await h.engine.triggers.get('ticking:each')).toMatchObject({ enabled: false, last_run: Date.UTC(2026, 10, 29, 12, 0, 1) });
  });

  it('an invalid cron or timezone is rejected at deploy', async () => {
    h = await harness();
    await expect(h.deploy(EVERY_SECOND.replace("'* * * * * *'", "'61 * * * * *'"))).rejects.toMatchObject({ code: 'model.invalid' });
    await expect(h.deploy(EVERY_SECOND.replace("cron: '* * * * * *'", "cron: '* * * * * *', timezone: Mars/Olympus"))).rejects.toMatchObject({ code: 'model.invalid' });
  });
});

describe('timer health', () => {
  it('a failing store degrades the loop (fewer attempts) and it recovers when the store returns', async () => {
    const store = new MemoryStore();
    let broken = false;
    const query = store.events.query.bind(store.events);
    store.events.query = async (q) => {
      if (broken) throw new Error('database unavailable');
      return query(q);
    };
    h = await createHarness({ store });
    h.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    await h.deploy(EVERY_SECOND);
    let calls = 0;
    const counted = store.events.query;
    store.events.query = async (q) => {
      calls++;
      return counted(q);
    };
    broken = true;
    for (let i = 0; i < 20; i++) await h.tick(1000);
    const degraded = h.engine.health().loops.find((l) => l.name === 'schedule-trigger')!;
    expect(degraded.degraded).toBe(true);
    expect(degraded.lastError).toMatch(/database unavailable/);
    expect(calls).toBeLessThan(12);
    expect(h.engine.health().loops.find((l) => l.name === 'message-retry')!.degraded).toBe(false);
    broken = false;
    for (let i = 0; i < 20; i++) await h.tick(1000);
    const healthy = h.engine.health().loops.find((l) => l.name === 'schedule-trigger')!;
    expect(healthy.degraded).toBe(false);
    expect(healthy.consecutiveFailures).toBe(0);
    expect((await h.engine.procs.list()).count).toBeGreaterThan(0);
  });
});

describe('several instances on PostgreSQL', () => {
  it('only the leading instance fires schedules; the next one leads when it stops', async () => {
    const { createTestDatabase } = await import('./helpers/databases.ts');
    const { openStore } = await import('../server/store/open-store.ts');
    const db = await createTestDatabase('postgresql');
    const a = await createHarness({ store: await openStore(db.url), instanceId: 'inst-a' });
    a.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    const b = await createHarness({ store: await openStore(db.url), instanceId: 'inst-b' });
    b.clock.set(Date.UTC(2026, 10, 29, 12, 0, 0));
    try {
      await a.deploy(EVERY_SECOND);
      for (let i = 0; i < 3; i++) {
        await a.tick(1000);
        await b.tick(1000);
      }
      expect((await a.engine.procs.list()).count).toBe(3);
      await a.close();
      await b.tick(1000);
      await b.tick(1000);
      expect((await b.engine.procs.list()).count).toBe(5);
    } finally {
      await b.close();
      await db.drop();
    }
  });
});
