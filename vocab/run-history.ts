/**
 * The history model of one run (time-travel replay, issue 14 item 1): given what the store keeps
 * of a run — every task's start and end times and last state, its messages, and the audit log's
 * operator actions on it — it answers what the run looked like at a moment `t` (epoch ms):
 * which tasks had started and in which state each was (`taskStateAt`, `tasksAt`), what happened
 * around `t` (`historyEvents`, `eventsAround`, `stepTime`), and which variables were visible then
 * (`variablesAt`, `taskDataAt`). Pure: the studio replays with it, the API's `history.variables`
 * computes with it. No history table exists; docs/replay.md says what is exact and what derived:
 *
 * - exact: when each task started and ended and the state it ended in; when each message was
 *   created; each audited action, who sent it and when; the process's start and end;
 * - derived: a task between its start and its end is drawn `running` — or `interrupted` when its
 *   package waits for an answer (`waits(uses)`, e.g. `acts.core.irq`, external packages) —, or in
 *   its recorded state when it has not ended yet (the live state); intermediate states (`pending`,
 *   an `error` a catch rule turned back to `running`) are not recorded;
 * - derived: process variables at `t` = the start inputs, then the outputs of every task that
 *   completed by `t`, merged in end order; a task's data at `t` = its inputs while it runs, its
 *   data (as stored now) once it ended. Values set with `set-vars` show from the end of the task
 *   they were set on; the action itself is an event (with its keys), its values are not recorded.
 */
import { isTerminalName } from './states.ts';

/** What the model needs of a task (the fields of the run page's tasks and of the engine's TaskInfo). */
export interface HistoryTask {
  tid: string;
  nid: string;
  kind: string;
  key: string;
  name: string;
  uses?: string;
  parent: string | null;
  /** Its state now (the last one recorded). */
  state: string;
  start_time: number;
  /** 0 while it has not ended. */
  end_time: number;
  err?: { ecode: string; message: string; outcome?: string } | null;
}

export interface HistoryMessage {
  id: string;
  tid: string;
  type: string;
  key: string;
  name: string;
  state: string;
  create_time: number;
}

/** An audited operator action on the run (target `pid` or `pid/tid`). */
export interface HistoryAction {
  id: string;
  time: number;
  /** Who sent it (the user's name). */
  actor: string;
  /** `task.complete`, `proc.abort`, `proc.set_vars` … */
  action: string;
  /** The task acted on; null for the whole process. */
  tid: string | null;
  /** `ok`, or the stable code it was refused with. */
  result: string;
  /** The option or variable names it carried (never their values). */
  keys: string[];
  /** A migration (`proc.migrate`): the model versions the run moved from and to. */
  migration?: { from: number; to: number };
}

export type HistoryEvent =
  | { kind: 'start'; key: string; time: number; task: HistoryTask }
  | { kind: 'end'; key: string; time: number; task: HistoryTask; state: string }
  | { kind: 'message'; key: string; time: number; message: HistoryMessage }
  | { kind: 'action'; key: string; time: number; action: HistoryAction };

/** Whether acts of a package wait for an answer while they are open (drawn `interrupted`). */
export type WaitsFor = (uses: string) => boolean;

const never: WaitsFor = () => false;

/** When a task ended, for the model: a terminal task recorded without an end time ended when it started. */
export function endOf(task: Pick<HistoryTask, 'state' | 'start_time' | 'end_time'>): number | null {
  if (task.end_time > 0) return task.end_time;
  return isTerminalName(task.state) ? task.start_time : null;
}

/**
 * The state of `task` at `t`: null before it started; its recorded end state from its end on;
 * between: its recorded state while it has not ended (the live state), else `interrupted` for an
 * act whose package waits, else `running`.
 */
export function taskStateAt(task: HistoryTask, t: number, waits: WaitsFor = never): string | null {
  if (t < task.start_time) return null;
  const end = endOf(task);
  if (end !== null && t >= end) return task.state;
  if (end === null) return task.state;
  return task.kind === 'act' && task.uses && waits(task.uses) ? 'interrupted' : 'running';
}

/** The tasks started by `t`, each as it was then (its state, and `end_time` 0 if it had not ended); start order kept. */
export function tasksAt<T extends HistoryTask>(tasks: readonly T[], t: number, waits: WaitsFor = never): T[] {
  const out: T[] = [];
  for (const task of tasks) {
    const state = taskStateAt(task, t, waits);
    if (state === null) continue;
    const ended = endOf(task);
    if (state === task.state && ended !== null && t >= ended) out.push(task);
    else out.push({ ...task, state, end_time: 0, err: isTerminalName(state) ? task.err : null });
  }
  return out;
}

/** The state of the process at `t`: null before it started, `running` until its end, then its end state. */
export function processStateAt(process: { state: string; start_time: number; end_time: number }, t: number): string | null {
  if (t < process.start_time) return null;
  if (process.end_time > 0) return t >= process.end_time ? process.state : 'running';
  return process.state;
}

/**
 * The order of events in one millisecond: the ends of tasks that started before it (what let the
 * next ones start), the starts, the ends of tasks that also started in it, then the messages and
 * actions that tell of them.
 */
function rank(event: HistoryEvent): number {
  if (event.kind === 'end') return event.task.start_time < event.time ? 0 : 2;
  return event.kind === 'start' ? 1 : event.kind === 'message' ? 3 : 4;
}

function byTime(a: HistoryEvent, b: HistoryEvent): number {
  return a.time - b.time || rank(a) - rank(b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Every event of the run, oldest first: task starts and ends, messages, actions (the same millisecond: see `rank`). */
export function historyEvents(tasks: readonly HistoryTask[], messages: readonly HistoryMessage[], actions: readonly HistoryAction[]): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  for (const task of tasks) {
    events.push({ kind: 'start', key: `s:${task.tid}`, time: task.start_time, task });
    const end = endOf(task);
    if (end !== null) events.push({ kind: 'end', key: `e:${task.tid}`, time: end, task, state: task.state });
  }
  for (const message of messages) events.push({ kind: 'message', key: `m:${message.id}`, time: message.create_time, message });
  for (const action of actions) events.push({ kind: 'action', key: `a:${action.id}`, time: action.time, action });
  return events.sort(byTime);
}

/** How many events happened at or before `t` (binary search over time-ordered events). */
export function eventsUpTo(events: readonly HistoryEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid].time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The events between `from` and `to`, both included. */
export function eventsBetween(events: readonly HistoryEvent[], from: number, to: number): HistoryEvent[] {
  return events.slice(eventsUpTo(events, from - 1), eventsUpTo(events, to));
}

/** Up to `before` events at or before `t` and up to `after` events after it; `past` counts the ones at or before. */
export function eventsAround(events: readonly HistoryEvent[], t: number, before: number, after: number): { events: HistoryEvent[]; past: number } {
  const at = eventsUpTo(events, t);
  const from = Math.max(0, at - before);
  return { events: events.slice(from, at + after), past: at - from };
}

/** The time of the next event after `t` (`direction` 1) or of the last one before it (-1); null when there is none. */
export function stepTime(events: readonly HistoryEvent[], t: number, direction: 1 | -1): number | null {
  if (direction === 1) {
    const next = eventsUpTo(events, t);
    return next < events.length ? events[next].time : null;
  }
  const before = eventsUpTo(events, t - 1);
  return before > 0 ? events[before - 1].time : null;
}

/** A task with the variables the model merges (the engine's TaskInfo has them). */
export interface TaskWithVars extends HistoryTask {
  data: Record<string, unknown>;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/**
 * The process variables visible at `t`: the start inputs (`start`), then the outputs of the tasks
 * that completed without error by `t` (not the root), merged in end order (ties: start order).
 */
export function variablesAt(start: Record<string, unknown>, tasks: readonly TaskWithVars[], t: number): Record<string, unknown> {
  const done = tasks.filter((task) => {
    const end = endOf(task);
    return task.tid !== '$' && end !== null && end <= t && isTerminalName(task.state) && task.state !== 'error';
  });
  done.sort((a, b) => endOf(a)! - endOf(b)! || a.start_time - b.start_time);
  const vars: Record<string, unknown> = { ...start };
  for (const task of done) Object.assign(vars, task.outputs);
  return vars;
}

/** A task's own variables at `t`: null before it started, its inputs while it runs, its stored data once it ended. */
export function taskDataAt(task: TaskWithVars, t: number): Record<string, unknown> | null {
  if (t < task.start_time) return null;
  const end = endOf(task);
  return end !== null && t >= end ? task.data : task.inputs;
}

/** The time span the scrubber covers: the run's start to its end, or to `now` while it runs. */
export function historySpan(process: { start_time: number; end_time: number }, now: number): { from: number; to: number } {
  const to = process.end_time > 0 ? process.end_time : Math.max(now, process.start_time);
  return { from: process.start_time, to };
}
