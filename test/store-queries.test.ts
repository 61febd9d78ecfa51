/**
 * Every named store query (Store.queries, ServerStore.serverQueries) on the memory store, SQLite
 * and PostgreSQL, over the same seeded rows: each case spells out the answer (ids in order,
 * counts, flags; for deletions also what is left), the rows that come back equal the rows seeded,
 * and the cases name every operation the stores offer — so the three implementations cannot drift.
 * The seeds put ties in the order keys (creation order breaks them), rows just outside each
 * filter, fractional time bounds (rounded as an integer column compares) and limits that cut.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryRow, EventRow, InboxRow, MessageRow, ModelVersionRow, NodeStatRow, OpRow, ProcRow, StartClaimRow, TaskRow } from '../server/store/contract/types.ts';
import { NEVER_DUE } from '../server/store/contract/inbox.ts';
import type { OpenedStore } from '../server/store/open-store.ts';
import type { ApiTokenRow, DraftRow, NotificationRow, SessionRow, UserRow } from '../server/store/server-rows.ts';
import { UNFINISHED_PROC_STATES } from '../vocab/states.ts';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { samples, T0, task } from './helpers/store-samples.ts';

const proc = (id: string, fields: Partial<ProcRow>): ProcRow => ({ ...samples.procs(id, 2), owner: null, start_key: null, start_digest: null, ...fields });
const tk = (pid: string, tid: string, fields: Partial<TaskRow>): TaskRow => ({ ...task(`${pid}:${tid}`, pid, 1), tid, ...fields });
const msg = (id: string, fields: Partial<MessageRow>): MessageRow => ({ ...samples.messages(id, 1), ...fields });
const dl = (id: string, fields: Partial<DeliveryRow>): DeliveryRow => ({ ...samples.deliveries(id, 1), ...fields });
const ev = (id: string, fields: Partial<EventRow>): EventRow => ({ ...samples.events(id, 1), kind: 'schedule', ...fields });
const ver = (mid: string, n: number): ModelVersionRow => ({ ...samples.modelVersions(`${mid}:${n}`, n), mid });
const op = (id: string, fields: Partial<OpRow>): OpRow => ({ ...samples.ops(id, 1), ...fields });
const claim = (key: string, instance: string, claimed: number): StartClaimRow => ({ id: key, pid: 'p9', digest: 'd9', instance, claimed });
const ib = (pid: string, tid: string, principal: string, mid: string, start: number, holder: string | null = null, due = NEVER_DUE, priority = 50): InboxRow => ({
  id: `${pid}:${tid}:${principal}`,
  pid,
  tid,
  mid,
  principal,
  start_time: start,
  holder,
  held_since: holder ? start : null,
  delegator: null,
  proposal: null,
  due_time: due,
  follow_up: NEVER_DUE,
  priority,
  escalated: null,
});
/** An operator's principals: unassigned tasks, their name, their role. */
const ANN = ['*', 'user:ann', 'role:clerk'];

const SEED = {
  procs: [
    proc('p1', { state: 'running', owner: 'i1', timestamp: T0 + 5, start_key: 'k1', start_digest: 'd1' }),
    proc('p2', { state: 'none', owner: 'i1', timestamp: T0 + 1 }),
    proc('p3', { state: 'running', owner: 'i2', timestamp: T0 + 1 }),
    proc('p4', { state: 'running', owner: 'i1', timestamp: T0 + 1 }),
    proc('c1', { state: 'running', parent_pid: 'p1', parent_tid: 't1' }),
    proc('c2', { state: 'skipped', parent_pid: 'p1', parent_tid: 't2' }),
    proc('c3', { state: 'none', parent_pid: 'p3', parent_tid: 't1' }),
    proc('c4', { state: 'pending', parent_pid: 'p1', parent_tid: 't1' }),
    proc('e1', { state: 'completed', mid: 'm2', start_time: T0 + 4, end_time: T0 + 10 }),
    proc('e2', { state: 'error', mid: 'm2', start_time: T0 + 3, end_time: T0 + 20 }),
    proc('e3', { state: 'completed', mid: 'm2', start_time: T0 + 16, end_time: T0 + 10 }),
    proc('e4', { state: 'aborted', mid: 'm2', start_time: T0 + 3, end_time: T0 + 30 }),
  ],
  tasks: [
    tk('p1', 'a', { state: 'completed' }),
    tk('p3', 'a', { state: 'interrupted', kind: 'step', start_time: T0 }),
    tk('p2', 'a', { state: 'interrupted', start_time: T0 + 1 }),
    tk('p1', 'b', { state: 'interrupted', start_time: T0 + 3 }),
    tk('p1', 'c', { state: 'interrupted', start_time: T0 + 1 }),
    tk('p4', 'a', { state: 'interrupted', start_time: T0 + 2 }),
    tk('p4', 'b', { state: 'interrupted', start_time: T0 + 4 }),
    // node figures of m2 (modelNodeStats): node a thrice in the range (once in error), b once, a
    // task ending after the range, one of a node built at run time, one open in a finished process
    tk('e1', 'x', { node_data: { origin: null, id: 'a' }, state: 'completed', start_time: T0 + 4, end_time: T0 + 6 }),
    tk('e1', 'y', { node_data: { origin: null, id: 'b' }, state: 'error', start_time: T0 + 6, end_time: T0 + 10 }),
    tk('e2', 'x', { node_data: { origin: null, id: 'a' }, state: 'error', start_time: T0 + 3, end_time: T0 + 8 }),
    tk('e2', 'y', { node_data: { origin: null, id: 'a' }, state: 'completed', start_time: T0 + 8, end_time: T0 + 20 }),
    tk('e2', 'z', { node_data: { origin: null, id: 'b' }, state: 'running', start_time: T0 + 8 }),
    tk('e4', 'x', { node_data: { origin: null, id: 'a' }, state: 'completed', start_time: T0 + 3, end_time: T0 + 30 }),
    tk('e4', 'd', { node_data: { origin: 'a', id: 'dyn' }, state: 'completed', start_time: T0 + 3, end_time: T0 + 9 }),
  ],
  // p1:c unassigned, p2:a for ann and the clerks (ties p1:c's start: creation order; ann holds
  // it), p1:b for the clerks; p4's tasks have no rows (the backfill finds them)
  inbox: [
    ib('p1', 'c', '', 'm1', T0 + 1),
    ib('p1', 'c', '*', 'm1', T0 + 1),
    ib('p2', 'a', '', 'm2', T0 + 1, 'ann'),
    ib('p2', 'a', 'user:ann', 'm2', T0 + 1, 'ann'),
    ib('p2', 'a', 'role:clerk', 'm2', T0 + 1, 'ann'),
    ib('p1', 'b', '', 'm1', T0 + 3, null, T0 + 10, 80),
    ib('p1', 'b', 'role:clerk', 'm1', T0 + 3, null, T0 + 10, 80),
  ],
  messages: [
    msg('m1', { pid: 'p1', tid: 't1', create_time: T0 + 2 }),
    msg('m2', { pid: 'p1', tid: 't1', state: 'completed', create_time: T0 + 1 }),
    msg('m3', { pid: 'p2', tid: 't1', create_time: T0 }),
    msg('m4', { pid: 'p2', tid: 't2', create_time: T0 }),
    msg('m5', { pid: 'p1', tid: 't1', type: 'step', create_time: T0 + 3 }),
    msg('m6', { pid: 'p1', tid: 't2', create_time: T0 + 2 }),
  ],
  deliveries: [
    dl('d1', { pid: 'p1', tid: 't1', chan_id: 'c1', update_time: T0 + 5 }),
    dl('d2', { pid: 'p1', tid: 't1', status: 'acked' }),
    dl('d3', { pid: 'p1', tid: 't2', chan_id: 'c2', update_time: T0 + 1 }),
    dl('d4', { pid: 'p2', tid: 't1', status: 'error' }),
    dl('d5', { pid: 'p1', tid: 't1', chan_id: 'c3', update_time: T0 + 1 }),
    dl('d6', { pid: 'p3', tid: 't1', status: 'error' }),
  ],
  events: [
    ev('m1:a', { mid: 'm1', next_run: T0 + 10 }),
    ev('m1:b', { mid: 'm1', enabled: false, next_run: T0 }),
    ev('m2:a', { mid: 'm2', next_run: 0 }),
    ev('m2:b', { mid: 'm2', next_run: T0 + 5 }),
    ev('m1:c', { mid: 'm1', kind: 'manual', next_run: T0 }),
  ],
  modelVersions: [ver('m1', 2), ver('m1', 1), ver('m2', 1)],
  ops: [
    op('o1', { type: 'exec', pid: 'p1', create_time: T0 + 2, update_time: T0 + 2 }),
    op('o2', { type: 'exec', pid: 'p2', status: 'dispatched', create_time: T0 + 1 }),
    op('o3', { type: 'exec', pid: 'p3', status: 'done' }),
    op('o4', { type: 'action', pid: 'p1', status: 'overflow' }),
    op('o5', { type: 'relay', pid: 'p2', create_time: T0 + 3 }),
    op('o6', { type: 'relay', pid: 'p1', create_time: T0 + 1 }),
    op('o7', { type: 'exec', pid: 'p4', create_time: T0 + 1, update_time: T0 + 9 }),
    op('o8', { type: 'relay', pid: 'p4', status: 'dispatched' }),
  ],
  instances: [
    { id: 'i1', host: 'h', pid: 1, lease_until: T0 + 100, started: T0 },
    { id: 'i2', host: 'h', pid: 2, lease_until: T0 + 50, started: T0 },
    { id: 'i3', host: 'h', pid: 3, lease_until: T0 + 49, started: T0 },
  ],
  startClaims: [{ id: 'key-1', pid: 'p9', digest: 'd9', instance: 'i2', claimed: T0 + 7 }],
};

const user = (id: string, name: string): UserRow => ({ id, name, password_hash: 'x', roles: ['viewer'], groups: null, email: null, disabled: false, create_time: T0, update_time: T0 });
const token = (id: string, userId: string, createTime: number): ApiTokenRow => ({ id, user_id: userId, name: id, token_hash: `hash-${id}`, create_time: createTime, last_used: null });
const session = (id: string, userId: string, expires: number): SessionRow => ({ id, user_id: userId, expires, create_time: T0, last_seen: T0 });

const draft = (id: string, userId: string, mid: string, saved: number): DraftRow => ({
  id,
  user_id: userId,
  user_name: userId,
  mid,
  title: id,
  source: `id: ${mid || 'x'}`,
  layout: { a: { x: 1.5, y: -2 } },
  base_ver: mid ? 1 : 0,
  create_time: T0,
  update_time: saved,
});

const note = (id: string, fields: Partial<NotificationRow>): NotificationRow => ({
  id,
  kind: 'arrived',
  pid: 'p1',
  tid: 't1',
  user_name: 'ann',
  email: 'ann@example.com',
  state: 'pending',
  attempts: 0,
  next_time: T0,
  lease_until: 0,
  error: null,
  create_time: T0,
  update_time: T0,
  ...fields,
});

const SERVER_SEED = {
  users: [user('u1', 'ann'), user('u2', 'bob')],
  apiTokens: [token('tk1', 'u1', T0 + 2), token('tk2', 'u2', T0), token('tk4', 'u1', T0 + 1), token('tk3', 'u1', T0 + 1)],
  sessions: [session('s1', 'u1', T0 + 10), session('s2', 'u1', T0 + 20), session('s3', 'u2', T0 + 5), session('s4', 'u2', T0 + 30)],
  notifications: [
    note('n1', { next_time: T0 + 5 }),
    note('n2', { lease_until: T0 + 20 }),
    note('n3', { state: 'sent' }),
    note('n4', { next_time: T0 + 1, lease_until: T0 }),
  ],
  drafts: [draft('df1', 'u1', 'm1', T0 + 1), draft('df2', 'u2', 'm1', T0 + 3), draft('df4', 'u1', '', T0 + 3), draft('df3', 'u1', 'm2', T0 + 3), draft('df5', 'u2', 'm2', T0)],
};

/** Every seeded row by id (ids are unique across collections). */
const SEEDED = new Map<string, object>([...Object.values(SEED), ...Object.values(SERVER_SEED)].flat().map((row) => [row.id, row]));

async function seed(store: OpenedStore): Promise<void> {
  await store.batch(async (tx) => {
    for (const [name, rows] of Object.entries(SEED)) for (const row of rows) await tx[name as keyof typeof SEED].create(row as never);
  });
  for (const [name, rows] of Object.entries(SERVER_SEED)) for (const row of rows) await store[name as keyof typeof SERVER_SEED].create(row as never);
}

type Answer = string[] | string | number | boolean | null | undefined | void;

/** What a query answered, reduced to ids; every row must be the row seeded under its id. */
function answer(value: unknown): Answer {
  const row = (r: { id: string }) => {
    expect(r).toEqual(SEEDED.get(r.id));
    return r.id;
  };
  if (Array.isArray(value)) return value.map(row);
  if (value && typeof value === 'object') return row(value as { id: string });
  return value as Answer;
}

const ids = async (page: Promise<{ rows: Array<{ id: string }> }>) => (await page).rows.map((r) => r.id);

interface Case {
  op: string;
  run: (store: OpenedStore) => Promise<unknown>;
  expected: Answer;
  /** What is left afterwards (deletions). */
  left?: (store: OpenedStore) => Promise<unknown>;
  leftExpected?: unknown;
}

const q = (store: OpenedStore) => store.queries;
/** The rows of modelNodeStats as one line: `nid now/passed/errors/p50/p95` each. */
const nodeFigures = async (rows: Promise<NodeStatRow[]>) => (await rows).map((r) => `${r.nid} ${r.now}/${r.passed}/${r.errors}/${r.p50}/${r.p95}`).join(' ');
const audit = (id: string, action: string, detail: { pid: string } | null) => ({ id, time: T0 + 1, actor: 'u1', actor_name: 'ann', action, target: 't', detail, result: 'ok' });
const sq = (store: OpenedStore) => store.serverQueries;

const CASES: Case[] = [
  { op: 'ownedProcessesIn', run: (s) => q(s).ownedProcessesIn('i1', ['running', 'none'], 10), expected: ['p2', 'p4', 'p1'] },
  { op: 'ownedProcessesIn', run: (s) => q(s).ownedProcessesIn('i1', ['running', 'none'], 2), expected: ['p2', 'p4'] },
  { op: 'ownedProcessesIn', run: (s) => q(s).ownedProcessesIn('i1', [], 2), expected: [] },
  { op: 'childProcessesIn', run: (s) => q(s).childProcessesIn(['p1', 'p3'], UNFINISHED_PROC_STATES), expected: ['c1', 'c3', 'c4'] },
  { op: 'childProcessesIn', run: (s) => q(s).childProcessesIn([], UNFINISHED_PROC_STATES), expected: [] },
  { op: 'subflowChildOf', run: (s) => q(s).subflowChildOf('p1', 't1'), expected: 'c1' },
  { op: 'subflowChildOf', run: (s) => q(s).subflowChildOf('p1', 'tx'), expected: undefined },
  { op: 'processWithStartKey', run: (s) => q(s).processWithStartKey('k1'), expected: 'p1' },
  { op: 'processWithStartKey', run: (s) => q(s).processWithStartKey('nope'), expected: undefined },
  { op: 'processesEndedBy', run: (s) => q(s).processesEndedBy(['completed', 'error'], T0 + 20.5, 10), expected: ['e1', 'e3', 'e2'] },
  { op: 'processesEndedBy', run: (s) => q(s).processesEndedBy(['completed', 'error'], T0 + 19.5, 10), expected: ['e1', 'e3'] },
  { op: 'processesEndedBy', run: (s) => q(s).processesEndedBy(['completed', 'error', 'aborted'], T0 + 40, 2), expected: ['e1', 'e3'] },
  { op: 'modelProcessesChangedSince', run: (s) => q(s).modelProcessesChangedSince('m2', T0 + 15.5, 10), expected: ['e2', 'e4', 'e3'] },
  { op: 'modelProcessesChangedSince', run: (s) => q(s).modelProcessesChangedSince('m2', T0 + 16, 1), expected: ['e2'] },
  { op: 'countProcessesIn', run: (s) => q(s).countProcessesIn('running'), expected: 4 },
  // nid now/passed/errors/p50/p95: nearest-rank percentiles; the range's bounds round as an integer column compares
  { op: 'modelNodeStats', run: (s) => nodeFigures(q(s).modelNodeStats('m2', T0 + 5.5, T0 + 25)), expected: 'a 0/3/1/5/12 b 0/1/1/4/4' },
  { op: 'modelNodeStats', run: (s) => nodeFigures(q(s).modelNodeStats('m2', T0 + 6.5, T0 + 9.5)), expected: 'a 0/1/1/5/5' },
  // m1: four unfinished processes at n1 (two with two open tasks of it); p1's completed task ended at 0, before the range
  { op: 'modelNodeStats', run: (s) => nodeFigures(q(s).modelNodeStats('m1', T0, T0 + 100)), expected: 'n1 4/0/0/null/null' },
  { op: 'modelNodeStats', run: (s) => nodeFigures(q(s).modelNodeStats('m9', 0, T0)), expected: '' },
  { op: 'countProcessesIn', run: (s) => q(s).countProcessesIn('removed'), expected: 0 },
  {
    op: 'deleteProcessRows',
    run: (s) => s.batch((tx) => tx.queries.deleteProcessRows('p1')),
    expected: undefined,
    left: async (s) => [
      await ids(s.procs.query()),
      await ids(s.tasks.query()),
      await ids(s.messages.query()),
      await ids(s.deliveries.query()),
      await ids(s.ops.query()),
      await ids(s.inbox.query()),
    ],
    leftExpected: [
      ['p2', 'p3', 'p4', 'c1', 'c2', 'c3', 'c4', 'e1', 'e2', 'e3', 'e4'],
      ['p3:a', 'p2:a', 'p4:a', 'p4:b', 'e1:x', 'e1:y', 'e2:x', 'e2:y', 'e2:z', 'e4:x', 'e4:d'],
      ['m3', 'm4'],
      ['d4', 'd6'],
      ['o2', 'o3', 'o5', 'o7', 'o8'],
      ['p2:a:', 'p2:a:user:ann', 'p2:a:role:clerk'],
    ],
  },

  { op: 'tasksOf', run: (s) => q(s).tasksOf(['p1', 'p3']), expected: ['p1:a', 'p3:a', 'p1:b', 'p1:c'] },
  { op: 'tasksOf', run: (s) => q(s).tasksOf([]), expected: [] },
  { op: 'interruptedActsWithoutInbox', run: (s) => q(s).interruptedActsWithoutInbox(0, 10), expected: ['p4:a', 'p4:b'] },
  { op: 'interruptedActsWithoutInbox', run: (s) => q(s).interruptedActsWithoutInbox(1, 10), expected: ['p4:b'] },
  { op: 'interruptedActsWithoutInbox', run: (s) => q(s).interruptedActsWithoutInbox(0, 1), expected: ['p4:a'] },

  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], offset: 0, limit: 10 }), expected: ['p1:c:', 'p2:a:', 'p1:b:'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], offset: 0, limit: 2, newestFirst: true }), expected: ['p1:b:', 'p2:a:'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], offset: 1, limit: 1 }), expected: ['p2:a:'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], mid: 'm1', offset: 0, limit: 10 }), expected: ['p1:c:', 'p1:b:'] },
  // a task that names several of the principals comes once (its row with the least id)
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ANN, offset: 0, limit: 10 }), expected: ['p1:c:*', 'p2:a:role:clerk', 'p1:b:role:clerk'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ANN, offset: 1, limit: 5, newestFirst: true }), expected: ['p2:a:role:clerk', 'p1:c:*'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ['*', 'user:ann'], mid: 'm2', offset: 0, limit: 10 }), expected: ['p2:a:user:ann'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ['*', 'user:bob'], offset: 0, limit: 10 }), expected: ['p1:c:*'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [], offset: 0, limit: 10 }), expected: [] },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: [''] }), expected: 3 },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: ANN }), expected: 3 },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: ['role:clerk'], mid: 'm1' }), expected: 1 },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: ['user:bob'] }), expected: 0 },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: [] }), expected: 0 },
  // soonest due first (the others never are: start order); highest priority first; the overdue ones
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], order: 'due', offset: 0, limit: 10 }), expected: ['p1:b:', 'p1:c:', 'p2:a:'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ANN, order: 'priority', offset: 0, limit: 10 }), expected: ['p1:b:role:clerk', 'p1:c:*', 'p2:a:role:clerk'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], dueBefore: T0 + 11, offset: 0, limit: 10 }), expected: ['p1:b:'] },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: ANN, dueBefore: T0 + 10 }), expected: 0 },
  // fell due in a window (the notifications' due look)
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], dueFrom: T0 + 10, dueBefore: T0 + 11, order: 'due', offset: 0, limit: 10 }), expected: ['p1:b:'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], dueFrom: T0 + 10.5, dueBefore: T0 + 20, order: 'due', offset: 0, limit: 10 }), expected: [] },
  // what is offered to bob, and also what ann holds (given or delegated to her)
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ['*', 'user:bob'], alsoHeldBy: 'ann', offset: 0, limit: 10 }), expected: ['p1:c:*', 'p2:a:'] },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: ['user:bob'], alsoHeldBy: 'ann' }), expected: 1 },
  // the tasks ann holds; those offered to her that no one holds
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: [''], holder: 'ann', offset: 0, limit: 10 }), expected: ['p2:a:'] },
  { op: 'inboxPage', run: (s) => q(s).inboxPage({ principals: ANN, holder: null, offset: 0, limit: 10 }), expected: ['p1:c:*', 'p1:b:role:clerk'] },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: ANN, holder: null }), expected: 2 },
  { op: 'inboxCount', run: (s) => q(s).inboxCount({ principals: [''], holder: 'bob' }), expected: 0 },
  {
    op: 'setInboxHold',
    run: (s) => q(s).setInboxHold({ pid: 'p1', tid: 'b' }, null, { holder: 'bob', held_since: T0 + 9, delegator: 'ann', proposal: { ok: true } }),
    expected: true,
    left: async (s) => (await s.inbox.query()).rows.filter((r) => r.pid === 'p1' && r.tid === 'b').map((r) => [r.holder, r.held_since, r.delegator, r.proposal]),
    leftExpected: [
      ['bob', T0 + 9, 'ann', { ok: true }],
      ['bob', T0 + 9, 'ann', { ok: true }],
    ],
  },
  // compared and set: another holds it, or the task left the inbox
  { op: 'setInboxHold', run: (s) => q(s).setInboxHold({ pid: 'p2', tid: 'a' }, 'bob', { holder: 'bob', held_since: T0, delegator: null, proposal: null }), expected: false },
  { op: 'setInboxHold', run: (s) => q(s).setInboxHold({ pid: 'p2', tid: 'a' }, null, { holder: 'bob', held_since: T0, delegator: null, proposal: null }), expected: false },
  { op: 'setInboxHold', run: (s) => q(s).setInboxHold({ pid: 'p9', tid: 'a' }, null, { holder: 'bob', held_since: T0, delegator: null, proposal: null }), expected: false },
  {
    op: 'setInboxHold',
    run: (s) => q(s).setInboxHold({ pid: 'p2', tid: 'a' }, 'ann', { holder: null, held_since: null, delegator: null, proposal: null }),
    expected: true,
    left: async (s) => (await s.inbox.query()).rows.filter((r) => r.pid === 'p2').map((r) => r.holder),
    leftExpected: [null, null, null],
  },
  {
    op: 'deleteInboxOf',
    run: (s) => q(s).deleteInboxOf([{ pid: 'p2', tid: 'a' }, { pid: 'p1', tid: 'c' }]),
    expected: 5,
    left: (s) => ids(s.inbox.query()),
    leftExpected: ['p1:b:', 'p1:b:role:clerk'],
  },
  { op: 'deleteInboxOf', run: (s) => q(s).deleteInboxOf([]), expected: 0 },

  { op: 'createdActMessagesOf', run: (s) => q(s).createdActMessagesOf([{ pid: 'p2', tid: 't1' }, { pid: 'p1', tid: 't1' }]), expected: ['m1', 'm3'] },
  { op: 'createdActMessagesOf', run: (s) => q(s).createdActMessagesOf([]), expected: [] },
  { op: 'processMessagesSince', run: (s) => q(s).processMessagesSince('p1', T0 + 1.5, 10), expected: ['m1', 'm6', 'm5'] },
  { op: 'processMessagesSince', run: (s) => q(s).processMessagesSince('p1', T0, 2), expected: ['m2', 'm1'] },

  { op: 'createdDeliveriesOfTask', run: (s) => q(s).createdDeliveriesOfTask('p1', 't1'), expected: ['d1', 'd5'] },
  { op: 'dueDeliveries', run: (s) => q(s).dueDeliveries(['c1', 'c2'], T0 + 5, 10), expected: ['d3', 'd1'] },
  { op: 'dueDeliveries', run: (s) => q(s).dueDeliveries(['c1', 'c2'], T0 + 4.9, 10), expected: ['d3'] },
  { op: 'dueDeliveries', run: (s) => q(s).dueDeliveries(['c1', 'c2', 'c3'], T0 + 5, 2), expected: ['d3', 'd5'] },
  {
    op: 'leaseDelivery',
    run: (s) => q(s).leaseDelivery({ id: 'd1', was_retry_times: 1, status: 'created', retry_times: 2, update_time: T0 + 50 }),
    expected: true,
    left: async (s) => (({ status, retry_times, update_time }) => [status, retry_times, update_time])((await s.deliveries.find('d1'))!),
    leftExpected: ['created', 2, T0 + 50],
  },
  {
    op: 'leaseDelivery',
    run: (s) => q(s).leaseDelivery({ id: 'd1', was_retry_times: 0, status: 'completed', retry_times: 0, update_time: T0 + 50 }),
    expected: false,
    left: async (s) => (await s.deliveries.find('d1'))?.status,
    leftExpected: 'created',
  },
  { op: 'leaseDelivery', run: (s) => q(s).leaseDelivery({ id: 'd2', was_retry_times: 1, status: 'completed', retry_times: 1, update_time: T0 }), expected: false },
  { op: 'hasUnsettledDeliveries', run: (s) => q(s).hasUnsettledDeliveries('p3'), expected: true },
  { op: 'hasUnsettledDeliveries', run: (s) => q(s).hasUnsettledDeliveries('p4'), expected: false },
  { op: 'failedDeliveries', run: (s) => q(s).failedDeliveries(), expected: ['d4', 'd6'] },
  { op: 'deleteFailedDeliveries', run: (s) => q(s).deleteFailedDeliveries('p2'), expected: 1, left: (s) => ids(s.deliveries.query()), leftExpected: ['d1', 'd2', 'd3', 'd5', 'd6'] },
  { op: 'deleteFailedDeliveries', run: (s) => q(s).deleteFailedDeliveries(), expected: 2, left: (s) => ids(s.deliveries.query()), leftExpected: ['d1', 'd2', 'd3', 'd5'] },
  { op: 'countDeliveries', run: (s) => q(s).countDeliveries('created'), expected: 3 },
  { op: 'countDeliveries', run: (s) => q(s).countDeliveries('error'), expected: 2 },

  { op: 'triggersOfModel', run: (s) => q(s).triggersOfModel('m1'), expected: ['m1:a', 'm1:b', 'm1:c'] },
  { op: 'dueSchedules', run: (s) => q(s).dueSchedules(T0 + 10, 10), expected: ['m2:b', 'm1:a'] },
  { op: 'dueSchedules', run: (s) => q(s).dueSchedules(T0 + 9.9, 10), expected: ['m2:b'] },
  { op: 'dueSchedules', run: (s) => q(s).dueSchedules(T0 + 10, 1), expected: ['m2:b'] },
  { op: 'nextSchedule', run: (s) => q(s).nextSchedule(0), expected: 'm2:b' },
  { op: 'nextSchedule', run: (s) => q(s).nextSchedule(T0 + 5), expected: 'm1:a' },
  { op: 'nextSchedule', run: (s) => q(s).nextSchedule(T0 + 10), expected: undefined },
  { op: 'deleteTriggersOfModel', run: (s) => q(s).deleteTriggersOfModel('m1'), expected: 3, left: (s) => ids(s.events.query()), leftExpected: ['m2:a', 'm2:b'] },
  { op: 'versionsOfModel', run: (s) => q(s).versionsOfModel('m1'), expected: ['m1:1', 'm1:2'] },
  { op: 'deleteVersionsOfModel', run: (s) => q(s).deleteVersionsOfModel('m1'), expected: 2, left: (s) => ids(s.modelVersions.query()), leftExpected: ['m2:1'] },

  { op: 'openOutboxRecords', run: (s) => q(s).openOutboxRecords('exec'), expected: ['o2', 'o7', 'o1'] },
  { op: 'openOutboxRecords', run: (s) => q(s).openOutboxRecords('action'), expected: ['o4'] },
  { op: 'hasOpenOutboxRecords', run: (s) => q(s).hasOpenOutboxRecords('p1'), expected: true },
  { op: 'hasOpenOutboxRecords', run: (s) => q(s).hasOpenOutboxRecords('p3'), expected: false },
  { op: 'pendingRelays', run: (s) => q(s).pendingRelays(10), expected: ['o6', 'o5'] },
  { op: 'pendingRelays', run: (s) => q(s).pendingRelays(1), expected: ['o6'] },
  { op: 'stalePendingExecs', run: (s) => q(s).stalePendingExecs(T0 + 5, 10), expected: ['o1'] },
  { op: 'stalePendingExecs', run: (s) => q(s).stalePendingExecs(T0 + 9.5, 10), expected: ['o7', 'o1'] },
  { op: 'deleteInstancesLapsedBefore', run: (s) => q(s).deleteInstancesLapsedBefore(T0 + 49.5), expected: 1, left: (s) => ids(s.instances.query()), leftExpected: ['i1', 'i2'] },
  { op: 'claimStartKey', run: (s) => q(s).claimStartKey(claim('key-1', 'i1', T0 + 8)), expected: false, left: (s) => s.startClaims.find('key-1'), leftExpected: SEED.startClaims[0] },
  { op: 'claimStartKey', run: (s) => q(s).claimStartKey(claim('key-2', 'i1', T0 + 8)), expected: true, left: (s) => s.startClaims.find('key-2'), leftExpected: claim('key-2', 'i1', T0 + 8) },
  { op: 'deleteStartClaim', run: (s) => q(s).deleteStartClaim(claim('key-1', 'i1', T0 + 7)), expected: false, left: (s) => ids(s.startClaims.query()), leftExpected: ['key-1'] },
  { op: 'deleteStartClaim', run: (s) => q(s).deleteStartClaim(claim('key-1', 'i2', T0 + 8)), expected: false, left: (s) => ids(s.startClaims.query()), leftExpected: ['key-1'] },
  { op: 'deleteStartClaim', run: (s) => q(s).deleteStartClaim(claim('key-1', 'i2', T0 + 7)), expected: true, left: (s) => ids(s.startClaims.query()), leftExpected: [] },

  { op: 'userNamed', run: (s) => sq(s).userNamed('bob'), expected: 'u2' },
  { op: 'userNamed', run: (s) => sq(s).userNamed('Bob'), expected: undefined },
  { op: 'tokensOfUser', run: (s) => sq(s).tokensOfUser('u1'), expected: ['tk3', 'tk4', 'tk1'] },
  { op: 'tokenWithHash', run: (s) => sq(s).tokenWithHash('hash-tk2'), expected: 'tk2' },
  { op: 'draftsOfUser', run: (s) => sq(s).draftsOfUser('u1'), expected: ['df3', 'df4', 'df1'] },
  { op: 'draftsOfUser', run: (s) => sq(s).draftsOfUser('u9'), expected: [] },
  { op: 'draftsOfModel', run: (s) => sq(s).draftsOfModel('m1'), expected: ['df2', 'df1'] },
  { op: 'draftsOfModel', run: (s) => sq(s).draftsOfModel(''), expected: ['df4'] },
  { op: 'tokenWithHash', run: (s) => sq(s).tokenWithHash('hash-none'), expected: undefined },
  { op: 'deleteSessionsOfUser', run: (s) => sq(s).deleteSessionsOfUser('u1'), expected: 2, left: (s) => ids(s.sessions.query()), leftExpected: ['s3', 's4'] },
  { op: 'deleteExpiredSessions', run: (s) => sq(s).deleteExpiredSessions(T0 + 10.5), expected: 2, left: (s) => ids(s.sessions.query()), leftExpected: ['s2', 's4'] },
  { op: 'deleteExpiredSessions', run: (s) => sq(s).deleteExpiredSessions(T0 + 20, 'u1'), expected: 2, left: (s) => ids(s.sessions.query()), leftExpected: ['s3', 's4'] },
  { op: 'dueNotifications', run: (s) => sq(s).dueNotifications(T0 + 10, 10), expected: ['n4', 'n1'] },
  { op: 'dueNotifications', run: (s) => sq(s).dueNotifications(T0 + 10, 1), expected: ['n4'] },
  { op: 'dueNotifications', run: (s) => sq(s).dueNotifications(T0 + 30, 10), expected: ['n2', 'n4', 'n1'] },
  { op: 'dueNotifications', run: (s) => sq(s).dueNotifications(T0 + 0.5, 10), expected: [] },
  { op: 'leaseNotification', run: (s) => sq(s).leaseNotification('n1', 0, T0 + 60), expected: true, left: async (s) => (await s.notifications.find('n1'))?.lease_until, leftExpected: T0 + 60 },
  { op: 'leaseNotification', run: (s) => sq(s).leaseNotification('n2', 0, T0 + 60), expected: false, left: async (s) => (await s.notifications.find('n2'))?.lease_until, leftExpected: T0 + 20 },
  { op: 'leaseNotification', run: (s) => sq(s).leaseNotification('n3', 0, T0 + 60), expected: false },
  {
    op: 'insertAuditEntries',
    run: (s) => sq(s).insertAuditEntries([audit('a1', 'proc.start', { pid: 'p1' }), audit('a2', 'model.deploy', null)]),
    expected: undefined,
    left: async (s) => (await s.audit.query({ order_by: ['id'] })).rows,
    leftExpected: [audit('a1', 'proc.start', { pid: 'p1' }), audit('a2', 'model.deploy', null)],
  },
];

describe.each(BACKENDS)('named store queries (%s)', (backend) => {
  const store = useTestStore(backend);
  beforeEach(() => seed(store()));

  it('are all covered here', () => {
    expect(new Set(CASES.map((c) => c.op))).toEqual(new Set([...Object.keys(store().queries), ...Object.keys(store().serverQueries)]));
  });

  it.each(CASES.map((c, i) => [`${c.op} #${i}`, c] as const))('%s', async (_name, c) => {
    expect(answer(await c.run(store()))).toEqual(c.expected);
    if (c.left) expect(await c.left(store())).toEqual(c.leftExpected);
  });
});
