/**
 * Task and message states (spec 2.2). A task moves none → ready/pending/interrupted → running →
 * one terminal state; only a catch rule can move a task out of `error` (back to `running`).
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

const TERMINAL_STATES = ['completed', 'submitted', 'backed', 'cancelled', 'error', 'aborted', 'skipped', 'removed'] as const;
export type TerminalState = (typeof TERMINAL_STATES)[number];

/** A message carries `created` for every waiting or running state, else the terminal state. */
export type MessageState = 'none' | 'created' | TerminalState;

const TERMINAL = new Set<TaskState>(TERMINAL_STATES);

const CREATED_LIKE = new Set<TaskState>(['ready', 'pending', 'interrupted']);

export function isTerminal(state: TaskState): boolean {
  return TERMINAL.has(state);
}

/** States of a process that has not ended (`none`: parked, waiting for a free slot). */
export const UNFINISHED_PROC_STATES: readonly string[] = ['none', 'ready', 'running', 'pending'];

/** Whether a process row's state says it has not ended. */
export function isUnfinishedName(state: string): boolean {
  return UNFINISHED_PROC_STATES.includes(state);
}

/** `isTerminal` of a state name from outside (a row, an API payload); unknown names are not terminal. */
export function isTerminalName(state: string): boolean {
  return TERMINAL.has(state as TaskState);
}

export function isCreatedLike(state: TaskState): boolean {
  return CREATED_LIKE.has(state);
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

/**
 * States in which a task's execution is still the engine's to do (queued, or an act running its
 * code), as opposed to done or waiting for a client or its children's clients.
 */
const ENGINE_WORK = new Set<string>(['none', 'ready', 'running']);

/** Whether a task (or a task row's state name) still has execution the engine owes it. */
export function isEngineWork(state: string): boolean {
  return ENGINE_WORK.has(state);
}
