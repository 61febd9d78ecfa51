/**
 * The schedule timer (issue 17 item 9, schedule-timer.ts), in real time: with a tick interval of
 * five minutes a 2-second cron still fires within 1 s of each due time, once per due time; on
 * PostgreSQL only the leading instance fires, also for a model deployed on another instance; a
 * fire that fell due while the engine was stopped fires right after the next start; and the
 * timer is gone after close. Each wait polls for its condition (no fixed sleep is an assertion).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, type EngineOptions } from '../server/runtime/engine.ts';
import type { ProcRow } from '../server/store/contract/types.ts';
import { openStore } from '../server/store/open-store.ts';
import { BACKENDS, createTestDatabase, useTestStore, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { borrowed } from './helpers/harness.ts';

/** Far longer than any wait below: a fire seen in a test came from the schedule timer, not a tick. */
const TICK_SECS = 300;
/** How long a fire is waited for (20 ms a try, plus the query): generous for a busy machine. */
const FIRE_TRIES = 1500;
/** The bound: a schedule fires within this long after its due time. */
const LATE_MS = 1000;

const EVERY_2S = `
id: every2s
on:
  - { id: each, uses: acts.event.schedule, cron: '*/2 * * * * *' }
steps: [ { id: s1 } ]
`;

const engines: Engine[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const db of databases.splice(0)) await db.drop();
});

async function engine(options: EngineOptions): Promise<Engine> {
  const created = await Engine.create({ tickIntervalSecs: TICK_SECS, ...options });
  engines.push(created);
  return created;
}

/** The first process of model `mid` started at or after `due`, once there is one. */
function firedAt(e: Engine, mid: string, due: number): Promise<ProcRow> {
  return eventually(
    async () =>
      (
        await e.procs.list({
          filter: { type: 'and', exprs: [{ key: 'mid', op: 'eq', value: mid }, { key: 'start_time', op: 'ge', value: due }] },
          order_by: ['start_time'],
          limit: 1,
        })
      ).rows[0],
    `a process of '${mid}' started at or after ${new Date(due).toISOString()}`,
    FIRE_TRIES,
  );
}

/** The processes of `mid` started in [from, to). */
async function startedBetween(e: Engine, mid: string, from: number, to: number): Promise<ProcRow[]> {
  const exprs = [
    { key: 'mid', op: 'eq' as const, value: mid },
    { key: 'start_time', op: 'ge' as const, value: from },
    { key: 'start_time', op: 'lt' as const, value: to },
  ];
  return (await e.procs.list({ filter: { type: 'and', exprs }, limit: 100 })).rows;
}

/** Waits for three fires of EVERY_2S from its first due time on; each one's lateness, ms. */
async function threeFires(firing: Engine, reading: Engine = firing): Promise<number[]> {
  const first = (await reading.triggers.get('every2s:each')).next_run;
  const late: number[] = [];
  for (let due = first; due < first + 6000; due += 2000) late.push((await firedAt(reading, 'every2s', due)).start_time - due);
  console.log(`schedule fire lateness (ms): ${late.join(', ')}`);
  return late;
}

describe.each(BACKENDS)('the schedule timer on %s', (backend) => {
  const store = useTestStore(backend);

  it('fires a seconds cron within 1 s of each due time, once per due time, though ticks are minutes apart', { timeout: 90_000 }, async () => {
    const e = await engine({ store: borrowed(store()) });
    await e.models.deploy(EVERY_2S);
    const first = (await e.triggers.get('every2s:each')).next_run;
    const late = await threeFires(e);
    for (const ms of late) {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(LATE_MS);
    }
    for (let due = first; due < first + 4000; due += 2000) expect(await startedBetween(e, 'every2s', due, due + 2000)).toHaveLength(1);
  });

  it('is armed while the engine runs and gone after close', { timeout: 90_000 }, async () => {
    const e = await engine({ store: borrowed(store()) });
    await e.models.deploy(EVERY_2S);
    const next = (await e.triggers.get('every2s:each')).next_run;
    // armed at the schedule's due time (or a later one's, once it fired), not at the 60 s re-check
    await eventually(() => (e.health().schedules.wakeAt ?? Infinity) <= Math.max(next, Date.now() + 2000), 'the schedule timer is armed at the next due time', FIRE_TRIES);
    await e.close();
    expect(e.health().schedules.wakeAt).toBeNull();
  });
});

describe('the schedule timer across instances and restarts', () => {
  it('on PostgreSQL only the leading instance fires, on time, a model deployed on another instance', { timeout: 90_000 }, async () => {
    const db = await createTestDatabase('postgresql');
    databases.push(db);
    const leader = await engine({ store: await openStore(db.url), instanceId: 'sched-lead' });
    const other = await engine({ store: await openStore(db.url), instanceId: 'sched-other' });
    await other.models.deploy(EVERY_2S);
    const first = (await other.triggers.get('every2s:each')).next_run;
    const late = await threeFires(leader, other);
    for (const ms of late) expect(ms).toBeLessThan(LATE_MS);
    const fired = await startedBetween(other, 'every2s', first, first + 4000);
    expect(fired.map((p) => p.owner)).toEqual(['sched-lead', 'sched-lead']);
  });

  it('a fire that fell due while the engine was stopped fires right after the next start (SQLite file)', { timeout: 90_000 }, async () => {
    const db = await createTestDatabase('sqlite');
    databases.push(db);
    const before = await Engine.create({ store: await openStore(db.url), autoTick: false });
    await before.models.deploy(EVERY_2S);
    const due = (await before.triggers.get('every2s:each')).next_run;
    await before.close();
    await eventually(() => Date.now() > due + 200, 'the fire is overdue', FIRE_TRIES);
    const after = await engine({ store: await openStore(db.url) });
    const started = Date.now();
    const fire = await firedAt(after, 'every2s', due);
    console.log(`overdue fire ${fire.start_time - started} ms after the start`);
    expect(fire.start_time - started).toBeLessThan(LATE_MS);
    expect((await after.triggers.get('every2s:each')).last_run).toBeGreaterThanOrEqual(due);
  });
});
