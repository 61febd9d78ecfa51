/**
 * A run's recorded history, for time-travel replay (docs/replay.md). Read permission: viewers
 * watch. Nothing new is written for it: the history is read from what the store keeps already
 * and derived by vocab/run-history.ts.
 *
 * - `history.run` — what the run page's tasks (`processes.summary`) lack: the process's span and
 *   model version, its messages (the first `HISTORY_MESSAGES`, oldest first, and their count),
 *   the audited operator actions on it and its tasks (the newest `HISTORY_ACTIONS`, oldest first,
 *   with who sent them and the names of the options or variables they carried, never the values)
 *   and its subflow children (to open one at the same moment).
 * - `history.variables` — the process variables visible at a moment and, given a task, that
 *   task's state and own data then (large values cut as every read does).
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import type { AuditEntry } from '../../audit/types.ts';
import { id } from '../limits.ts';
import { eq, toQuery } from '../paging.ts';
import { shownVars } from '../large-values.ts';
import { allowed, router } from '../trpc.ts';
import { taskDataAt, taskStateAt, variablesAt, type HistoryAction } from '../../../vocab/run-history.ts';

export const HISTORY_MESSAGES = 10_000;
export const HISTORY_ACTIONS = 1_000;
const HISTORY_CHILDREN = 500;

const time = z.number().int().min(0);

/** The names an audited action carried: a task action's option names, set-vars' variable names. */
function keysOf(detail: unknown): string[] {
  if (!detail || typeof detail !== 'object') return [];
  const { options, keys } = detail as { options?: unknown; keys?: unknown };
  if (Array.isArray(keys)) return keys.filter((k): k is string => typeof k === 'string');
  return options && typeof options === 'object' && !Array.isArray(options) ? Object.keys(options) : [];
}

/** The versions a migration moved the run between (its audit detail), or undefined. */
function migrationOf(entry: AuditEntry): HistoryAction['migration'] {
  const { from, to } = (entry.detail ?? {}) as { from?: unknown; to?: unknown };
  return entry.action === 'proc.migrate' && typeof from === 'number' && typeof to === 'number' ? { from, to } : undefined;
}

function actionOf(entry: AuditEntry, pid: string): HistoryAction {
  const tid = entry.target.startsWith(`${pid}/`) ? entry.target.slice(pid.length + 1) : null;
  const action: HistoryAction = { id: entry.id, time: entry.time, actor: entry.actor_name, action: entry.action, tid, result: entry.result, keys: keysOf(entry.detail) };
  const migration = migrationOf(entry);
  return migration ? { ...action, keys: [], migration } : action;
}

export const historyRouter = router({
  run: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const { engine, audit } = ctx.services;
      const cursor = Date.now();
      const row = await engine.reads.storedProcess(input.pid);
      const [messages, actions, children] = await Promise.all([
        engine.messages.list(toQuery([eq('pid', input.pid)], { offset: 0, limit: HISTORY_MESSAGES }, { field: 'create_time', order: 'asc' })),
        audit.query({ targetUnder: input.pid, limit: HISTORY_ACTIONS }),
        engine.procs.list(toQuery([eq('parent_pid', input.pid)], { offset: 0, limit: HISTORY_CHILDREN }, { field: 'start_time', order: 'asc' })),
      ]);
      return {
        process: { pid: row.id, mid: row.mid, ver: row.model_ver, name: row.name, state: row.state, start_time: row.start_time, end_time: row.end_time, parent_pid: row.parent_pid, parent_tid: row.parent_tid },
        messages: {
          count: messages.count,
          rows: messages.rows.map((m) => ({ id: m.id, tid: m.tid, nid: m.nid, type: m.type, key: m.key, name: m.name, state: m.state, create_time: m.create_time })),
        },
        actions: { count: actions.count, rows: actions.rows.map((e) => actionOf(e, input.pid)).reverse() },
        children: children.rows.map((c) => ({ pid: c.id, tid: c.parent_tid, mid: c.mid, state: c.state, start_time: c.start_time, end_time: c.end_time })),
        cursor,
      };
    }),

  variables: allowed('read')
    .input(z.object({ pid: id, at: time, tid: id.optional() }))
    .query(async ({ ctx, input }) => {
      const { tasks } = await ctx.services.engine.procs.get(input.pid);
      const root = tasks.find((t) => t.tid === '$');
      const variables = shownVars(variablesAt(root?.inputs ?? {}, tasks, input.at));
      if (input.tid === undefined) return { at: input.at, variables, task: null };
      const task = tasks.find((t) => t.tid === input.tid);
      if (!task) throw new ActError('task.not_found', `cannot find task '${input.tid}' in process '${input.pid}'`);
      const data = taskDataAt(task, input.at);
      return { at: input.at, variables, task: { tid: task.tid, state: taskStateAt(task, input.at), data: data === null ? null : shownVars(data) } };
    }),
});
