/**
 * The engine's typed event map (runtime/events.ts) beyond tasks and messages, each fact made to
 * happen for real: the process lifecycle (`started`, `finished`, in the job, before channels hear
 * it) on SQLite; a full lane (`laneFull` once per transition, not per refused execution, then
 * `laneDrained`) on SQLite and over /metrics; a degraded and recovered timer loop on SQLite; a
 * lapsed lease, processes lost and processes claimed on PostgreSQL with two instances. Each fact
 * is also one line of the engine's logger (event-log.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../server/engine/clock.ts';
import type { Logger } from '../server/engine/logger.ts';
import type { Message } from '../server/engine/messages.ts';
import { Engine, type EngineOptions } from '../server/runtime/engine.ts';
import type { EngineEvents } from '../server/runtime/events.ts';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const databases: TestDatabase[] = [];
const engines: Engine[] = [];
let server: TestServer | undefined;
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await server?.close();
  server = undefined;
  for (const db of databases.splice(0)) await db.drop();
});

/** A logger that keeps its lines. */
function linesOf(): Logger & { lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (text: string) => void lines.push([level, text]);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function recorded<K extends keyof EngineEvents>(engine: Engine, event: K): Array<EngineEvents[K]> {
  const seen: Array<EngineEvents[K]> = [];
  engine.on(event, (payload) => void seen.push(payload));
  return seen;
}

async function database(backend: 'sqlite' | 'postgresql'): Promise<TestDatabase> {
  const db = await createTestDatabase(backend);
  databases.push(db);
  return db;
}

async function engineOn(url: string, options: Omit<EngineOptions, 'store'> = {}): Promise<Engine & { store: OpenedStore }> {
  const store = await openStore(url);
  const engine = await Engine.create({ store, autoTick: false, tickIntervalSecs: 1, ...options });
  engines.push(engine);
  return Object.assign(engine, { store });
}

const ONE_IRQ = 'id: one\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: wait } ] } ]';
const SMALL = 'id: small\nsteps: [ { id: s1, acts: [ { uses: acts.transform.set, params: { a: 1 } } ] } ]';
const FAILING = `id: failing\nsteps: [ { id: s1, acts: [ { uses: acts.transform.code, params: 'throw new Error("boom")' } ] } ]`;

describe('the process lifecycle (SQLite)', () => {
  it('started and finished go out in the job that started or ended the process, before its channels hear them', async () => {
    const engine = await engineOn((await database('sqlite')).url);
    await engine.models.deploy(ONE_IRQ);
    await engine.models.deploy(FAILING);
    const order: string[] = [];
    const jobs: Record<string, number> = {};
    const started = recorded(engine, 'started');
    const finished = recorded(engine, 'finished');
    engine.on('task', ({ task }) => {
      if (task.tid !== '$') return;
      order.push(`task ${task.state}`);
      jobs[`task ${task.state}`] = engine.batchSeq();
    });
    engine.on('message', (m) => void (m.tid === '$' && order.push(`message ${m.state}`)));
    engine.on('started', () => void ((jobs.started = engine.batchSeq()), order.push('started')));
    engine.on('finished', ({ proc }) => void ((jobs.finished = engine.batchSeq()), order.push(`finished ${proc.state}`)));
    const heard: Message[] = [];
    engine
      .channel({ id: 'watch' })
      .onStart((m) => void (heard.push(m), order.push('on_start')))
      .onComplete((m) => void (heard.push(m), order.push('on_complete')))
      .onError((m) => void (heard.push(m), order.push('on_error')));

    const { pid } = await engine.procs.start('one');
    await engine.idle();
    expect(order).toEqual(['task ready', 'message created', 'started', 'task running', 'on_start']);
    expect(jobs.started).toBe(jobs['task ready']);
    expect(started).toEqual([{ proc: expect.objectContaining({ pid, state: 'running' }), message: heard[0] }]);
    expect(started[0].message).toMatchObject({ pid, tid: '$', type: 'workflow', mid: 'one' });

    order.length = 0;
    const tid = (await engine.tasks.list(pid)).find((t) => t.key === 'wait')!.tid;
    const waited = engine.procs.wait(pid);
    await engine.act.complete(pid, tid, { answer: 42 });
    await engine.idle();
    expect(order).toEqual(['task completed', 'message completed', 'finished completed', 'on_complete']);
    expect(jobs.finished).toBe(jobs['task completed']);
    expect(finished).toEqual([{ proc: expect.objectContaining({ pid, state: 'completed' }), message: heard[1] }]);
    expect(finished[0].message).toMatchObject({ pid, tid: '$', state: 'completed' });
    expect((await waited).state).toBe('completed');

    order.length = 0;
    const failing = await engine.procs.start('failing');
    await engine.idle();
    // one drain pass ran its jobs: the channels hear of both after it
    expect(order.filter((e) => !/^(task|message) /.test(e))).toEqual(['started', 'finished error', 'on_start', 'on_error']);
    expect(finished[1]).toEqual({ proc: expect.objectContaining({ pid: failing.pid, state: 'error' }), message: heard[3] });
    expect(finished[1].message.inputs).toMatchObject({ ecode: expect.any(String) });
  });
});

describe('a full lane (SQLite)', () => {
  it('is reported when it turns full and when it drained, not once per refused execution; every process still completes', async () => {
    const log = linesOf();
    const engine = await engineOn((await database('sqlite')).url, { schedulerWorkers: 1, schedulerQueueCap: 2, logger: log });
    await engine.models.deploy(SMALL);
    const changes: string[] = [];
    const full = recorded(engine, 'laneFull');
    const drained = recorded(engine, 'laneDrained');
    engine.on('laneFull', () => void changes.push('full'));
    engine.on('laneDrained', () => void changes.push('drained'));

    const pids = (await Promise.all(Array.from({ length: 40 }, () => engine.procs.start('small')))).map((p) => p.pid);
    await engine.idle();
    expect(await engine.procs.count('completed')).toBe(40);

    const refused = (await engine.outbox()).filter((op) => op.type === 'exec');
    expect(full.length).toBeGreaterThan(0);
    expect(full.length).toBeLessThan(refused.length);
    expect(full[0]).toEqual({ lane: 0, size: 2, capacity: 2, pid: expect.any(String) });
    expect(pids).toContain(full[0].pid);
    expect(drained.at(-1)).toEqual({ lane: 0, size: expect.any(Number), capacity: 2 });
    expect(drained.at(-1)!.size).toBeLessThanOrEqual(1);
    // the transitions alternate, starting full and ending drained
    expect(changes.join(' ')).toMatch(/^(full drained ?)+$/);
    expect(log.lines.filter(([, text]) => text.startsWith('lane 0 is full'))).toHaveLength(full.length);
    expect(log.lines).toContainEqual(['warn', `lane 0 is full (2 of 2 jobs): executions overflow to the outbox and go back as it drains (the first refused is of process ${full[0].pid})`]);
  });

  it('counts in /metrics: acts_lane_full_total and the processes started and finished', async () => {
    server = await startTestServer({ engine: { schedulerWorkers: 1, schedulerQueueCap: 2 } });
    const full = recorded(server.engine, 'laneFull');
    await server.engine.models.deploy(SMALL);
    await Promise.all(Array.from({ length: 40 }, () => server!.engine.procs.start('small')));
    await server.engine.idle();
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(full.length).toBeGreaterThan(0);
    expect(text).toContain(`acts_lane_full_total{lane="0"} ${full.length}`);
    expect(text).toContain('acts_processes_started_total 40');
    expect(text).toContain('acts_processes_finished_total{state="completed"} 40');
    for (const zero of ['acts_lease_lost_total 0', 'acts_processes_claimed_total 0', 'acts_store_writer_saturations_total 0']) expect(text).toContain(zero);
  });
});

describe('a timer loop (SQLite)', () => {
  it('is reported degraded once after failed ticks in a row, and recovered at its first clean tick', async () => {
    const log = linesOf();
    const clock = new ManualClock();
    const engine = await engineOn((await database('sqlite')).url, { clock, logger: log });
    const degraded = recorded(engine, 'loopDegraded');
    const recovered = recorded(engine, 'loopRecovered');
    let broken = true;
    const stale = engine.store.queries.stalePendingExecs.bind(engine.store.queries);
    engine.store.queries.stalePendingExecs = async (...args) => {
      if (broken) throw new Error('database unavailable');
      return stale(...args);
    };
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      clock.advance(1000);
      times.push(clock.now());
      await engine.tick();
    }
    expect(degraded).toEqual([{ loop: 'message-retry', failures: 3, since: times[2], backoff: 1, error: 'database unavailable' }]);
    expect(recovered).toEqual([]);
    const failures = engine.health().loops.find((l) => l.name === 'message-retry')!.consecutiveFailures;

    broken = false;
    for (let i = 0; i < 40 && recovered.length === 0; i++) {
      clock.advance(1000);
      await engine.tick();
    }
    expect(recovered).toEqual([{ loop: 'message-retry', failures, since: times[2] }]);
    expect(engine.health().loops.every((l) => !l.degraded)).toBe(true);
    expect(degraded).toHaveLength(1);
    expect(log.lines).toContainEqual(['warn', 'the message-retry timer loop is degraded after 3 failed ticks in a row (database unavailable): it skips ticks before each attempt until one is clean']);
    expect(log.lines).toContainEqual(['info', `the message-retry timer loop recovered after ${failures} failed ticks in a row`]);
  });
});

describe('leases and takeovers (PostgreSQL, two instances)', () => {
  const LEASE_MS = 1000;

  async function pair(): Promise<{ a: Engine; b: Engine; clock: ManualClock; logA: ReturnType<typeof linesOf> }> {
    const db = await database('postgresql');
    const clock = new ManualClock();
    clock.set(Date.UTC(2026, 10, 29, 12));
    const logA = linesOf();
    const a = await engineOn(db.url, { clock, instanceId: 'A', leaseMs: LEASE_MS, logger: logA });
    const b = await engineOn(db.url, { clock, instanceId: 'B', leaseMs: LEASE_MS });
    await a.models.deploy(ONE_IRQ);
    return { a, b, clock, logA };
  }

  it('B claims the process of A, whose lease lapsed; A finds its lease lost at its next renewal and drops it', async () => {
    const { a, b, clock, logA } = await pair();
    const { pid } = await a.procs.start('one');
    await a.idle();
    const leaseUntil = clock.now() + LEASE_MS;
    const claimed = recorded(b, 'processesClaimed');
    const facts: string[] = [];
    a.on('leaseLost', (e) => void facts.push(`leaseLost ${JSON.stringify(e)}`));
    a.on('processesLost', (e) => void facts.push(`processesLost ${JSON.stringify(e)}`));

    clock.advance(LEASE_MS + 1);
    await b.tick();
    expect(claimed).toEqual([{ pids: [pid], boot: false }]);
    await a.tick();
    expect(facts).toEqual([
      `leaseLost ${JSON.stringify({ instance: 'A', leaseUntil, renewedAt: clock.now() })}`,
      `processesLost ${JSON.stringify({ pids: [pid], foundBy: 'lease' })}`,
    ]);
    expect(a.stats().processes).toBe(0);
    expect(logA.lines).toContainEqual(['warn', 'the lease of engine instance A had lapsed; checking which processes it still owns']);
    expect(logA.lines).toContainEqual(['warn', `1 process taken over by another engine instance (after this instance’s lease lapsed) left this instance: ${pid}`]);
  });

  it('a write of A dropped by the fence reports the process lost (found by the fence)', async () => {
    const { a, b, clock } = await pair();
    const { pid } = await a.procs.start('one');
    await a.idle();
    const tid = (await a.tasks.list(pid)).find((t) => t.key === 'wait')!.tid;
    clock.advance(LEASE_MS + 1);
    await b.tick();
    await b.idle();
    const lost = recorded(a, 'processesLost');
    const leases = recorded(a, 'leaseLost');
    await a.act.complete(pid, tid);
    await b.idle();
    expect(lost).toEqual([{ pids: [pid], foundBy: 'fence' }]);
    expect(leases).toEqual([]);
    expect((await b.procs.get(pid)).state).toBe('completed');
  });
});
