/**
 * Every statement the hot paths send — the inbox, the runs list, a tick, a restart's recovery —
 * is served by an index on the large tables (procs, tasks, messages, deliveries, ops), on SQLite
 * and PostgreSQL: the planner is asked about each statement the store really sent
 * (test/helpers/query-plans.ts) and must not read any of those tables end to end; the inbox finds
 * the messages of its open tasks through their (pid, tid) index. Every named store query
 * (Store.queries) is asked the same about the statements it sends.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { EVERY_TASK, principalsOfCaller } from '../vocab/inbox-principals.ts';
import { Engine } from '../server/runtime/engine.ts';
import { UNFINISHED_PROC_STATES } from '../vocab/states.ts';
import { and, eq, is } from '../server/store/contract/filters.ts';
import type { QueryExpr, StoreQueries } from '../server/store/contract/types.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { RecordingStore, type Statement } from './helpers/query-plans.ts';

const HOT_TABLES = ['procs', 'tasks', 'messages', 'deliveries', 'ops', 'inbox'];

const MODEL = `
id: hot
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: approve } ] }
`;

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const db of databases) await db.drop();
});

/** The statements on a hot table that the planner answers with a full scan of one, each once. */
async function fullScans(recording: RecordingStore): Promise<Array<{ sql: string; scans: string[] }>> {
  const seen = new Map<string, Statement>();
  for (const s of recording.statements) if (/^\s*(SELECT|WITH|UPDATE|DELETE)/i.test(s.sql)) seen.set(s.sql, s);
  const found = [];
  for (const s of seen.values()) {
    const scans = (await recording.accessOf(s)).fullScans.filter((table) => HOT_TABLES.includes(table));
    if (scans.length > 0) found.push({ sql: s.sql, scans });
  }
  return found;
}

const T = 1_700_000_000_000;

/** One call of every named query (a batch for the one that belongs in one). */
const NAMED: { [K in keyof StoreQueries]: (q: StoreQueries) => Promise<unknown> } = {
  ownedProcessesIn: (q) => q.ownedProcessesIn('i1', UNFINISHED_PROC_STATES, 10),
  childProcessesIn: (q) => q.childProcessesIn(['p1', 'p2'], UNFINISHED_PROC_STATES),
  subflowChildOf: (q) => q.subflowChildOf('p1', 't1'),
  processWithStartKey: (q) => q.processWithStartKey('k'),
  processesEndedBy: (q) => q.processesEndedBy(['completed', 'error'], T, 200),
  modelProcessesChangedSince: (q) => q.modelProcessesChangedSince('m', T, 100),
  countProcessesIn: (q) => q.countProcessesIn('running'),
  modelNodeStats: (q) => q.modelNodeStats('m', T - 86_400_000, T),
  deleteProcessRows: (q) => q.deleteProcessRows('p1'),
  tasksOf: (q) => q.tasksOf(['p1', 'p2']),
  interruptedActsWithoutInbox: (q) => q.interruptedActsWithoutInbox(0, 200),
  inboxPage: (q) => q.inboxPage({ principals: [EVERY_TASK], offset: 0, limit: 50 }),
  inboxCount: (q) => q.inboxCount({ principals: [EVERY_TASK] }),
  deleteInboxOf: (q) => q.deleteInboxOf([{ pid: 'p1', tid: 't1' }, { pid: 'p2', tid: 't1' }]),
  setInboxHold: (q) => q.setInboxHold({ pid: 'p1', tid: 't1' }, null, { holder: 'ann', held_since: T, delegator: null, proposal: null }),
  createdActMessagesOf: (q) => q.createdActMessagesOf([{ pid: 'p1', tid: 't1' }, { pid: 'p2', tid: 't1' }]),
  processMessagesSince: (q) => q.processMessagesSince('p1', T, 100),
  createdDeliveriesOfTask: (q) => q.createdDeliveriesOfTask('p1', 't1'),
  dueDeliveries: (q) => q.dueDeliveries(['c1', 'c2'], T, 300),
  leaseDelivery: (q) => q.leaseDelivery({ id: 'd1', was_retry_times: 0, status: 'created', retry_times: 1, update_time: T }),
  hasUnsettledDeliveries: (q) => q.hasUnsettledDeliveries('p1'),
  failedDeliveries: (q) => q.failedDeliveries(),
  deleteFailedDeliveries: (q) => q.deleteFailedDeliveries('p1'),
  countDeliveries: (q) => q.countDeliveries('created'),
  triggersOfModel: (q) => q.triggersOfModel('m'),
  dueSchedules: (q) => q.dueSchedules(T, 1000),
  nextSchedule: (q) => q.nextSchedule(T),
  deleteTriggersOfModel: (q) => q.deleteTriggersOfModel('m'),
  versionsOfModel: (q) => q.versionsOfModel('m'),
  deleteVersionsOfModel: (q) => q.deleteVersionsOfModel('m'),
  openOutboxRecords: (q) => q.openOutboxRecords('exec'),
  hasOpenOutboxRecords: (q) => q.hasOpenOutboxRecords('p1'),
  pendingRelays: (q) => q.pendingRelays(256),
  stalePendingExecs: (q) => q.stalePendingExecs(T, 1000),
  deleteInstancesLapsedBefore: (q) => q.deleteInstancesLapsedBefore(T),
  claimStartKey: (q) => q.claimStartKey({ id: 'k', pid: 'p1', digest: 'd', instance: 'i1', claimed: T }),
  deleteStartClaim: (q) => q.deleteStartClaim({ id: 'k', pid: 'p1', digest: 'd', instance: 'i1', claimed: T }),
};

describe.each(SQL_BACKENDS)('hot queries use indexes (%s)', (backend) => {
  it('every named query reads no hot table end to end', async () => {
    const db = await createTestDatabase(backend);
    databases.push(db);
    const recording = await RecordingStore.open(db);
    for (const call of Object.values(NAMED)) await call(recording.store.queries);
    const served = await fullScans(recording);
    await recording.close();
    expect(Object.keys(NAMED).sort()).toEqual(Object.keys(recording.store.queries).sort());
    expect(recording.statements.length).toBeGreaterThan(Object.keys(NAMED).length); // deleteProcessRows sends five
    expect(served).toEqual([]);
  });

  /** A recording store on a new database and an engine on it with three processes of MODEL waiting. */
  async function threeWaiting(): Promise<{ db: TestDatabase; recording: RecordingStore; engine: Engine }> {
    const db = await createTestDatabase(backend);
    databases.push(db);
    const recording = await RecordingStore.open(db);
    const engine = await Engine.create({ store: recording.store, autoTick: false });
    await engine.models.deploy(MODEL);
    for (let i = 0; i < 3; i++) await engine.procs.start('hot');
    await engine.idle();
    return { db, recording, engine };
  }

  it('inbox, runs list, tick and recovery read no hot table end to end', async () => {
    const { db, recording: first, engine } = await threeWaiting();
    const before = first.statements.length;
    const inbox = await engine.reads.inbox({ principals: [EVERY_TASK], offset: 0, limit: 50 });
    expect(inbox.count).toBe(3);
    expect(inbox.tasks).toHaveLength(3);
    // the created messages of the open tasks are looked up by (pid, tid), not among every created message
    const lookup = first.statements.slice(before).find((s) => /FROM\s+\S*messages/.test(s.sql));
    const { indexes } = await first.accessOf(lookup!);
    expect(indexes).toContain('messages_pid_tid_idx');
    expect(indexes.filter((i) => i !== 'messages_pid_tid_idx')).toEqual([]);
    // an operator's inbox (several principals, one model, newest first) pages on the inbox's indexes
    const operator = { principals: principalsOfCaller('ann', ['operator', 'clerk']), mid: 'hot', offset: 1, limit: 1, newestFirst: true };
    expect(await engine.reads.inbox(operator)).toMatchObject({ count: 3, tasks: [{ pid: inbox.tasks[1].pid }] });
    const inboxReads = first.statements.slice(before).filter((s) => /"inbox" i WHERE i\."(principal|id)"/.test(s.sql));
    expect(inboxReads.length).toBe(4); // page and count, for each of the two
    for (const s of inboxReads) expect((await first.accessOf(s)).indexes.filter((i) => i.startsWith('inbox_principal_')), s.sql).not.toEqual([]);
    // the views of claims: the tasks one user holds, and those offered to a caller that no one holds
    expect((await engine.reads.inbox({ principals: [EVERY_TASK], holder: 'ann', offset: 0, limit: 50 })).count).toBe(0);
    expect((await engine.reads.inbox({ principals: principalsOfCaller('ann', ['operator'], ['finance']), holder: null, offset: 0, limit: 50 })).count).toBe(3);
    await engine.procs.list({ order_by: [{ field: 'start_time', order: 'desc' }], limit: 50 });
    await engine.tick();
    const served = await fullScans(first);
    await engine.close();
    await first.close();

    // a restart: recovery claims, loads and resumes the three waiting processes
    const second = await RecordingStore.open(db);
    const restarted = await Engine.create({ store: second.store, autoTick: false });
    expect(restarted.stats().processes).toBe(3);
    expect((await restarted.reads.inbox({ principals: [EVERY_TASK], offset: 0, limit: 1 })).count).toBe(3);
    await restarted.tick();
    served.push(...(await fullScans(second)));
    await restarted.close();
    await second.close();
    expect(first.statements.length + second.statements.length).toBeGreaterThan(20);
    expect(served).toEqual([]);
  });

  it('the filters on columns most rows leave empty are served by their partial indexes', async () => {
    const { recording, engine } = await threeWaiting();
    /** The indexes the planner uses for the statements on procs or tasks that `call` sends. */
    const indexesOf = async (call: () => Promise<unknown>): Promise<string[]> => {
      const before = recording.statements.length;
      await call();
      const sent = recording.statements.slice(before).filter((s) => /FROM\s+\S*\b(procs|tasks)\b/.test(s.sql));
      expect(sent.length).toBeGreaterThan(0);
      return (await Promise.all(sent.map(async (s) => (await recording.accessOf(s)).indexes))).flat();
    };
    const page = (filter: QueryExpr) => ({ filter: and(filter), offset: 0, limit: 50 });
    // the runs list's stuck filter, a run's subflow children and its re-runs (the API's filters)
    expect(await indexesOf(() => engine.procs.list(page(is('stuck_since', 'gt', 0))))).toContain('procs_stuck_since_idx');
    expect(await indexesOf(() => engine.procs.list(page(eq('parent_pid', 'p1'))))).toContain('procs_parent_pid_idx');
    expect(await indexesOf(() => engine.procs.list(page(eq('rerun_of', 'p1'))))).toContain('procs_rerun_of_idx');
    // the runs list's failing-node filter: tasks in error; the inbox's backfill: interrupted acts
    expect(await indexesOf(() => engine.reads.processesFailingAt('s1', 10))).toContain('tasks_start_time_seq_idx');
    expect(await indexesOf(() => recording.store.queries.interruptedActsWithoutInbox(0, 200))).toContain('tasks_kind_start_time_seq_idx');
    await engine.close();
    await recording.close();
  });
});
