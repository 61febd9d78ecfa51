/**
 * `StoreQueries` in the query language, over the collections of a store: the memory store's named
 * queries (its collections' equality indexes serve the `eq` parts). The SQL stores answer the same
 * names with statements (server/store/sql/); test/store-queries.test.ts holds them to one answer.
 */
import { memoryNodeStats } from './memory-node-stats.ts';
import { and, countOf, eq, firstOf, is, oneOf, or, rowsOf } from './filters.ts';
import type { CollectionName, InboxFilter, InboxRow, OpStatus, Store, StoreQueries } from './types.ts';
import { DEFAULT_PRIORITY, NEVER_DUE } from './inbox.ts';

/** Outbox statuses before `done`, by name: on SQL an index range each (most rows are done). */
const OPEN_STATUSES: readonly OpStatus[] = ['pending', 'overflow', 'dispatched'];

export function memoryQueries(store: Pick<Store, CollectionName>): StoreQueries {
  const { procs, tasks, messages, deliveries, events, modelVersions, ops, instances, startClaims, inbox, states, files } = store;
  // leases of deliveries one after another, so a find and its update are never split by another's
  let leases: Promise<boolean> = Promise.resolve(false);
  const byPid = (pid: string) => and(eq('pid', pid));
  /**
   * The filter's inbox rows: each task's row with the least id (as the SQL stores pick it),
   * earliest start first, then in the creation order of those rows.
   */
  const inboxRows = async (filter: InboxFilter): Promise<InboxRow[]> => {
    const narrower = [
      ...(filter.mid === undefined ? [] : [eq('mid', filter.mid)]),
      ...(filter.holder === undefined ? [] : [eq('holder', filter.holder)]),
      ...(filter.dueBefore === undefined ? [] : [is('due_time', 'lt', filter.dueBefore)]),
      ...(filter.dueFrom === undefined ? [] : [is('due_time', 'ge', filter.dueFrom)]),
    ];
    const principals = oneOf('principal', filter.principals);
    const whose = filter.alsoHeldBy === undefined ? principals : or(principals, and(eq('principal', ''), eq('holder', filter.alsoHeldBy)));
    const rows = await rowsOf(inbox, and(whose, ...narrower), ['start_time']);
    const first = new Map<string, { row: InboxRow; at: number }>();
    rows.forEach((row, at) => {
      const task = `${row.pid}:${row.tid}`;
      const seen = first.get(task);
      if (!seen || row.id < seen.row.id) first.set(task, { row, at });
    });
    return [...first.values()].sort((a, b) => a.at - b.at).map(({ row }) => row);
  };
  return {
    ownedProcessesIn: (owner, states, limit) => rowsOf(procs, and(eq('owner', owner), oneOf('state', states)), ['timestamp'], limit),
    childProcessesIn: (parentPids, states) => rowsOf(procs, and(oneOf('parent_pid', parentPids), oneOf('state', states))),
    subflowChildOf: (pid, tid) => firstOf(procs, and(eq('parent_pid', pid), eq('parent_tid', tid))),
    processWithStartKey: (key) => firstOf(procs, and(eq('start_key', key))),
    processesEndedBy: (states, endedBy, limit) => rowsOf(procs, and(oneOf('state', states), is('end_time', 'le', endedBy)), ['end_time'], limit),
    modelProcessesChangedSince: (mid, since, limit) =>
      rowsOf(procs, and(eq('mid', mid), or(is('start_time', 'ge', since), is('end_time', 'ge', since))), ['start_time'], limit),
    countProcessesIn: (state) => countOf(procs, and(eq('state', state))),
    modelNodeStats: memoryNodeStats(store),
    async deleteProcessRows(pid) {
      for (const rows of [deliveries, messages, inbox, tasks, ops, states, files]) await rows.deleteWhere(byPid(pid));
      await procs.delete(pid);
    },

    tasksOf: (pids) => rowsOf(tasks, oneOf('pid', pids)),
    async interruptedActsWithoutInbox(offset, limit) {
      const open = await rowsOf(tasks, and(eq('state', 'interrupted'), eq('kind', 'act')), ['start_time']);
      const without = [];
      for (const task of open) if ((await countOf(inbox, and(eq('pid', task.pid), eq('tid', task.tid)))) === 0) without.push(task);
      return without.slice(offset, offset + limit);
    },

    async inboxPage({ offset, limit, newestFirst, order = 'start', ...filter }) {
      const rows = await inboxRows(filter);
      if (newestFirst) rows.reverse();
      // a stable sort keeps the start order among equals
      const due = (row: InboxRow) => row.due_time ?? NEVER_DUE;
      if (order === 'due') rows.sort((a, b) => due(a) - due(b));
      if (order === 'priority') rows.sort((a, b) => (b.priority ?? DEFAULT_PRIORITY) - (a.priority ?? DEFAULT_PRIORITY) || due(a) - due(b));
      return rows.slice(offset, offset + limit);
    },
    inboxCount: async (filter) => (await inboxRows(filter)).length,
    async setInboxHold(task, expected, hold) {
      const rows = await rowsOf(inbox, and(eq('pid', task.pid), eq('tid', task.tid)));
      if (rows.length === 0 || rows.some((row) => (row.holder ?? null) !== expected)) return false;
      for (const row of rows) await inbox.update({ ...row, ...hold });
      return true;
    },
    deleteInboxOf: async (refs) => (refs.length === 0 ? 0 : inbox.deleteWhere(or(...refs.map((ref) => and(eq('pid', ref.pid), eq('tid', ref.tid)))))),

    createdActMessagesOf: (refs) =>
      rowsOf(messages, and(eq('state', 'created'), eq('type', 'act'), or(...refs.map((ref) => and(eq('pid', ref.pid), eq('tid', ref.tid)))))),
    processMessagesSince: (pid, since, limit) => rowsOf(messages, and(eq('pid', pid), is('create_time', 'ge', since)), ['create_time'], limit),

    createdDeliveriesOfTask: (pid, tid) => rowsOf(deliveries, and(eq('pid', pid), eq('tid', tid), eq('status', 'created'))),
    dueDeliveries: (channels, sentBy, limit) =>
      rowsOf(deliveries, and(eq('status', 'created'), is('update_time', 'le', sentBy), oneOf('chan_id', channels)), ['update_time'], limit),
    leaseDelivery(lease) {
      const change = async (): Promise<boolean> => {
        const row = await deliveries.find(lease.id);
        if (!row || row.status !== 'created' || row.retry_times !== lease.was_retry_times) return false;
        await deliveries.update({ ...row, status: lease.status, retry_times: lease.retry_times, update_time: lease.update_time });
        return true;
      };
      const changed = leases.then(change, change);
      leases = changed.catch(() => false);
      return changed;
    },
    hasUnsettledDeliveries: async (pid) => (await countOf(deliveries, and(eq('pid', pid), oneOf('status', ['created', 'error'])))) > 0,
    failedDeliveries: () => rowsOf(deliveries, and(eq('status', 'error'))),
    deleteFailedDeliveries: (pid) => deliveries.deleteWhere(pid ? and(eq('status', 'error'), eq('pid', pid)) : and(eq('status', 'error'))),
    countDeliveries: (status) => countOf(deliveries, and(eq('status', status))),

    triggersOfModel: (mid) => rowsOf(events, and(eq('mid', mid))),
    dueSchedules: (now, limit) =>
      rowsOf(events, and(eq('kind', 'schedule'), eq('enabled', true), is('next_run', 'gt', 0), is('next_run', 'le', now)), ['next_run'], limit),
    nextSchedule: async (after) => (await rowsOf(events, and(eq('kind', 'schedule'), eq('enabled', true), is('next_run', 'gt', after)), ['next_run'], 1))[0],
    deleteTriggersOfModel: (mid) => events.deleteWhere(and(eq('mid', mid))),
    versionsOfModel: (mid) => rowsOf(modelVersions, and(eq('mid', mid)), ['ver']),
    deleteVersionsOfModel: (mid) => modelVersions.deleteWhere(and(eq('mid', mid))),

    openOutboxRecords: (type) => rowsOf(ops, and(eq('type', type), oneOf('status', OPEN_STATUSES)), ['create_time']),
    hasOpenOutboxRecords: async (pid) => (await countOf(ops, and(eq('pid', pid), is('status', 'ne', 'done')))) > 0,
    pendingRelays: (limit) => rowsOf(ops, and(eq('type', 'relay'), eq('status', 'pending')), ['create_time'], limit),
    stalePendingExecs: (updatedBy, limit) =>
      rowsOf(ops, and(eq('type', 'exec'), eq('status', 'pending'), is('update_time', 'le', updatedBy)), ['create_time'], limit),
    deleteInstancesLapsedBefore: (before) => instances.deleteWhere(and(is('lease_until', 'lt', before))),

    // One engine per memory store, and it claims a key once at a time (start-keys.ts): nothing
    // claims between the lookup and the insert.
    async claimStartKey(claim) {
      if (await startClaims.exists(claim.id)) return false;
      await startClaims.create(claim);
      return true;
    },
    deleteStartClaim: async (claim) => (await startClaims.deleteWhere(and(eq('id', claim.id), eq('instance', claim.instance), eq('claimed', claim.claimed)))) > 0,
  };
}
