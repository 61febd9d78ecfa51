/**
 * The inbox rows of open interrupt tasks (the read model's inbox, InboxRow): who may act on a task
 * (its assignment), the principals that names, and which rows a job's batch writes or deletes.
 * A task is in the inbox from its `created` act message while it waits in `interrupted`: the
 * batch holding that message writes its rows, the batch of the job in which it leaves
 * `interrupted` (answered, skipped, failed, aborted …) deletes them; an escalation (engine
 * escalation.ts) replaces them in the batch of its job. Acts of external packages
 * (run_as `worker`) wait in `interrupted` for a remote worker, never in the inbox. Stateless.
 */
import type { InboxRow, MessageRow, StoreQueries, TaskRef } from '../store/contract/types.ts';
import { DEFAULT_PRIORITY, NEVER_DUE } from '../store/contract/inbox.ts';
import { parseDuration } from '../engine/model/duration.ts';
import type { Task } from '../engine/task.ts';
import { assignmentOf, EVERY_TASK, principalsOf } from '../../vocab/inbox-principals.ts';
import { escalatedParams, lastEscalation } from '../../vocab/escalations.ts';

/** Tasks whose created messages one query looks up (each pair a term of its OR). */
const LOOKUP_CHUNK = 50;

/** The `created` act message of each of `tasks` that has one (its last), by `pid:tid`. */
export async function createdMessagesOf(queries: StoreQueries, tasks: readonly TaskRef[]): Promise<Map<string, MessageRow>> {
  const byTask = new Map<string, MessageRow>();
  for (let i = 0; i < tasks.length; i += LOOKUP_CHUNK) {
    for (const m of await queries.createdActMessagesOf(tasks.slice(i, i + LOOKUP_CHUNK))) byTask.set(`${m.pid}:${m.tid}`, m);
  }
  return byTask;
}

type CreatedMessage = Pick<MessageRow, 'pid' | 'tid' | 'mid' | 'inputs' | 'start_time'>;

/**
 * A moment an act's params name (`due`, `follow_up`): a duration from the task's start (`2d`,
 * `4h`: spec 1.5's durations), a date or date-time text, or epoch ms; NEVER_DUE for anything else.
 */
export function momentOf(value: unknown, start: number): number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), NEVER_DUE) : NEVER_DUE;
  if (typeof value !== 'string' || value.trim() === '') return NEVER_DUE;
  const ms = parseDuration(value.trim());
  if (ms !== null) return Math.min(start + ms, NEVER_DUE);
  const date = Date.parse(value);
  return Number.isNaN(date) ? NEVER_DUE : date;
}

/** An act's `params.priority`: a whole number (higher first), else DEFAULT_PRIORITY. */
export function priorityOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(-1_000_000, Math.min(1_000_000, Math.round(value))) : DEFAULT_PRIORITY;
}

/** The rows of a task its `created` act message puts in the inbox (the every-task row first), in its assignee's hands if it names one. */
export function inboxRowsOf(m: CreatedMessage): InboxRow[] {
  const params = (m.inputs.params ?? null) as Record<string, unknown> | null;
  const assignment = assignmentOf(params);
  const principals = [EVERY_TASK, ...principalsOf(assignment)];
  const escalation = lastEscalation(params);
  const handed = escalation ? escalation.at : m.start_time;
  const escalated = escalatedParams(params);
  const held = { holder: assignment.assignee, held_since: assignment.assignee ? handed : null, delegator: null, proposal: null };
  const when = { due_time: momentOf(params?.due, m.start_time), follow_up: momentOf(params?.follow_up, m.start_time), priority: priorityOf(params?.priority) };
  return principals.map((principal) => ({ id: `${m.pid}:${m.tid}:${principal}`, pid: m.pid, tid: m.tid, mid: m.mid, principal, start_time: m.start_time, ...held, ...when, escalated }));
}

/** An open interrupt whose params changed who may answer it (an escalation), with its model. */
export interface Reoffered {
  task: Task;
  mid: string;
}

/** What a batch does to the inbox: rows of tasks that entered it, tasks that left it. */
export interface InboxChanges {
  rows: InboxRow[];
  left: TaskRef[];
}

/**
 * The inbox changes of a batch: a task whose `created` act message the batch holds enters the
 * inbox when it still waits (`interrupted`, said by `stateOf`); a task that left `interrupted`
 * during the job (`left`, recorded by TaskWrites.setState) and does not wait again leaves it; a
 * task `reoffered` that still waits has its rows replaced by rows of its params as they are now.
 */
export function inboxChanges(
  messages: readonly MessageRow[],
  stateOf: (pid: string, tid: string) => string | undefined,
  left: readonly Task[],
  isExternal: (uses: string) => boolean = () => false,
  reoffered: readonly Reoffered[] = [],
): InboxChanges {
  const again = reoffered.filter((r) => r.task.state === 'interrupted');
  const replaced = new Set(again.map((r) => `${r.task.pid}:${r.task.tid}`));
  const entered = new Map<string, MessageRow>();
  for (const m of messages) {
    const key = `${m.pid}:${m.tid}`;
    if (m.type === 'act' && m.state === 'created' && !replaced.has(key) && stateOf(m.pid, m.tid) === 'interrupted' && !isExternal(m.uses)) entered.set(key, m);
  }
  const offeredAgain = again.map(({ task, mid }) => ({ pid: task.pid, tid: task.tid, mid, inputs: { params: task.params }, start_time: task.startTime }));
  return {
    rows: [...[...entered.values()].flatMap(inboxRowsOf), ...offeredAgain.flatMap(inboxRowsOf)],
    left: [...left.filter((t) => t.state !== 'interrupted'), ...again.map((r) => r.task)].map((t) => ({ pid: t.pid, tid: t.tid })),
  };
}
