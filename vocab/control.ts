/**
 * The control of one running process (issue 14: breakpoints, pause, step over, incidents): the one
 * vocabulary the engine (server/engine/control.ts), the API and the run page share. A process is
 * paused by an operator, at a breakpoint, or at the next node after a step over; while paused, no
 * node of it starts (what runs goes on to its end). An incident is an act that failed with no
 * catch to handle it, in a workflow that holds such failures (`incidents: true`, or the server's
 * `incidents` setting): the act stays in `error` and the process waits for an operator to retry
 * it or let the error go on.
 */

/** Why a process is paused. */
export const PAUSE_REASONS = ['operator', 'breakpoint', 'step'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** The actions that control a process (applied to its root task, like `abort`). */
export const CONTROL_ACTIONS = ['pause', 'resume', 'step_over', 'set_breakpoints', 'retry', 'fail'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

export function isControlAction(name: string): name is ControlAction {
  return (CONTROL_ACTIONS as readonly string[]).includes(name);
}

/** Where and why a process is paused. */
export interface PauseView {
  reason: PauseReason;
  /** The task that stopped before it started (a breakpoint, a step), or null (an operator's pause). */
  tid: string | null;
  /** That task's node id, or null. */
  nid: string | null;
  /** When it paused (epoch ms). */
  at: number;
}

/** An act that failed with no catch to handle it, held for an operator. */
export interface IncidentView {
  tid: string;
  nid: string;
  ecode: string;
  message: string;
  at: number;
}

/** What the API and the studio show of a process's control. */
export interface ControlView {
  paused: PauseView | null;
  /** Node ids a task of which pauses the process before it starts. */
  breakpoints: string[];
  /**
   * A step over in progress: the tasks that run (with everything inside them) before the next
   * node pauses — the one a breakpoint or step stopped at, or every task an operator's pause
   * held back; null: no step over.
   */
  stepping: string[] | null;
  incidents: IncidentView[];
  /** The process this one re-runs from one of its steps, and that step's node id. */
  rerunOf: { pid: string; from: string } | null;
}

/** The stored control of a process (its row's `control`): the view, and the tasks a resume let through. */
export interface ControlState extends ControlView {
  /** Tids a resume let through the gate that have not started yet. */
  pass: string[];
}

/** The control of a process nobody controlled (a fresh value each call). */
export function noControl(): ControlView {
  return { paused: null, breakpoints: [], stepping: null, incidents: [], rerunOf: null };
}

/** Whether a process with this control waits for an operator (paused, or an open incident). */
export function waitsForOperator(control: ControlView | null | undefined): boolean {
  return !!control && (control.paused !== null || control.incidents.length > 0);
}
