/**
 * How each task/process state looks (STUDIO.md): an icon, a label and a drawing variant; the
 * colours are the `--state-<state>` CSS variables of app/globals.css. Never colour alone.
 * A message's `created` state (any waiting or running task) reads as running; a task that ended
 * on a declared outcome (`outcome:<name>`) reads as an answer given; an external package's act
 * waiting (`interrupted:worker`) reads as waiting for a worker.
 */
import type { TaskState } from '../../vocab/states.ts';
import type { IconName } from './icons.tsx';

export type StateVariant = 'tint' | 'outline' | 'dashed' | 'struck' | 'pulse' | 'solid';

export interface StateLook {
  /** The state whose `--state-*` colours apply. */
  state: TaskState;
  label: string;
  icon: IconName;
  variant: StateVariant;
}

const LOOKS: Record<TaskState, Omit<StateLook, 'state'>> = {
  none: { label: 'Not started', icon: 'circle', variant: 'tint' },
  ready: { label: 'Ready', icon: 'circle', variant: 'tint' },
  pending: { label: 'Pending', icon: 'clock', variant: 'outline' },
  running: { label: 'Running', icon: 'play', variant: 'pulse' },
  interrupted: { label: 'Waiting for a person', icon: 'person', variant: 'tint' },
  completed: { label: 'Completed', icon: 'check', variant: 'tint' },
  skipped: { label: 'Skipped', icon: 'skip', variant: 'dashed' },
  submitted: { label: 'Submitted', icon: 'send', variant: 'tint' },
  backed: { label: 'Sent back', icon: 'undo', variant: 'tint' },
  cancelled: { label: 'Cancelled', icon: 'ban', variant: 'tint' },
  error: { label: 'Error', icon: 'alert', variant: 'tint' },
  aborted: { label: 'Aborted', icon: 'stop', variant: 'solid' },
  removed: { label: 'Removed', icon: 'minus', variant: 'struck' },
};

/** Every state a task reaches once it exists (all but `none`), in the order of the looks above. */
export const SHOWN_STATES = (Object.keys(LOOKS) as TaskState[]).filter((state) => state !== 'none');

/** A drawn state `outcome:<name>`: a task that ended on a declared outcome (an answer, not a failure). */
export const OUTCOME_STATE_PREFIX = 'outcome:';

/** A drawn state: an act of an external package waiting (`interrupted`) for a remote worker, not a person. */
export const WORKER_WAIT_STATE = 'interrupted:worker';

/** The look of a state name; unknown names look like `none` and keep their own text as label. */
export function stateLook(state: string): StateLook {
  if (state === 'created') return { state: 'running', ...LOOKS.running, label: 'Created' };
  if (state === WORKER_WAIT_STATE) return { state: 'interrupted', ...LOOKS.interrupted, label: 'Waiting for a worker', icon: 'plug' };
  if (state.startsWith(OUTCOME_STATE_PREFIX)) return { state: 'submitted', ...LOOKS.submitted, label: `Answered: ${state.slice(OUTCOME_STATE_PREFIX.length)}` };
  if (Object.hasOwn(LOOKS, state)) return { state: state as TaskState, ...LOOKS[state as TaskState] };
  return { state: 'none', ...LOOKS.none, label: state || LOOKS.none.label };
}
