/**
 * Task, process and delivery states (spec 2.2): the one list of each, shared by the engine, the
 * API, the CLI and the studio. A task moves none → ready/pending/interrupted → running → one
 * terminal state; only a catch rule can move a task out of `error` (back to `running`). A process
 * carries its root task's state; `none` while it is parked, waiting for a free slot.
 */

export const TASK_STATES = [
  'none',
  'ready',
  'pending',
  'running',
  'interrupted',
  'completed',
  'submitted',
  'backed',
  'cancelled',
  'error',
  'aborted',
  'skipped',
  'removed',
] as const;

export type TaskState = (typeof TASK_STATES)[number];

export const TERMINAL_STATES = ['completed', 'submitted', 'backed', 'cancelled', 'error', 'aborted', 'skipped', 'removed'] as const;
export type TerminalState = (typeof TERMINAL_STATES)[number];

/** A message carries `created` for every waiting or running state, else the terminal state. */
export type MessageState = 'none' | 'created' | TerminalState;

const TERMINAL = new Set<string>(TERMINAL_STATES);

const CREATED_LIKE = new Set<TaskState>(['ready', 'pending', 'interrupted']);

export function isTerminal(state: TaskState): boolean {
  return TERMINAL.has(state);
}

/** States of a process that is running or about to (loaded first at boot). */
export const IN_FLIGHT_PROC_STATES: readonly string[] = ['ready', 'running', 'pending'];

/** States of a process that has not ended (`none`: parked, waiting for a free slot). */
export const UNFINISHED_PROC_STATES: readonly string[] = ['none', ...IN_FLIGHT_PROC_STATES];

/** The states runs are filtered, counted and measured by: running, the three ends, parked (`none`). */
export const LISTED_PROC_STATES = ['running', 'completed', 'error', 'aborted', 'none'] as const;

/** Whether a process row's state says it has not ended. */
export function isUnfinishedName(state: string): boolean {
  return UNFINISHED_PROC_STATES.includes(state);
}

/** `isTerminal` of a state name from outside (a row, an API payload); unknown names are not terminal. */
export function isTerminalName(state: string): boolean {
  return TERMINAL.has(state);
}

export function isCreatedLike(state: TaskState): boolean {
  return CREATED_LIKE.has(state);
}

/** States of a task under way now: running, or waiting (for a person, a free slot, its children). */
const UNDER_WAY = new Set<string>(['pending', 'running', 'interrupted']);

/** Whether a task state name says the task is under way (the run page follows such nodes). */
export function isUnderWayName(state: string): boolean {
  return UNDER_WAY.has(state);
}

/** A terminal state that counts as success for hooks (`completed`, `updated`, `step`). */
export function isNonErrorTerminal(state: TaskState): boolean {
  return TERMINAL.has(state) && state !== 'error';
}

export function parseTaskState(text: string): TaskState {
  return (TASK_STATES as readonly string[]).includes(text) ? (text as TaskState) : 'none';
}

export function messageStateOf(state: TaskState): MessageState {
  if (state === 'none') return 'none';
  if (CREATED_LIKE.has(state) || state === 'running') return 'created';
  return state as MessageState;
}

/** A delivery of a message to a channel: waiting for an ack, acked, completed, or failed (redo). */
export const DELIVERY_STATUSES = ['created', 'acked', 'completed', 'error'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * States in which a task's execution is still the engine's to do (queued, or an act running its
 * code), as opposed to done or waiting for a client or its children's clients.
 */
const ENGINE_WORK = new Set<string>(['none', 'ready', 'running']);

/** Whether a task (or a task row's state name) still has execution the engine owes it. */
export function isEngineWork(state: string): boolean {
  return ENGINE_WORK.has(state);
}
