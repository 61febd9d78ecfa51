/**
 * Schedule triggers (spec 5.7) and timer health (5.10), driven by an injected clock: a
 * once-per-second schedule fires once per tick and advances; a failing start still advances; a
 * disabled trigger stays quiet; a failing store degrades the loop, which recovers when it returns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { EngineOptions } from '../server/runtime/engine.ts';
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
