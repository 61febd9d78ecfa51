/**
 * Control of a running process by its operators (issue 14; vocab/control.ts): pause and resume,
 * breakpoints, step over, and incidents (an act that failed with no catch, held for an operator).
 *
 * The gate (`holdsBack`, called by every job before a task starts — state `none` or `ready`):
 * a paused process holds the task back (it stays in its state, listed in `proc.held`); an
 * unpaused one pauses at a task of a breakpoint's node, or at the first task outside the one a
 * step over runs. A resume lets every task waiting at the gate through (`pass`, until each
 * started), so a breakpoint does not stop them twice — also those a restart's recovery has not
 * brought back to the gate yet. Everything but `held` is written with the process row, in
 * the job that changed it; after a restart, recovery queues every task in `none`/`ready` again and
 * the gate holds them back again, so a paused process stays paused.
 *
 * State: running ⇄ paused (operator / breakpoint / step); a step over: stepping → paused at the
 * next node outside. An incident: open (act in `error`, not reported to its parent, the parent
 * waits) → retried (a new task for the same node, in the same place) or failed (the error goes
 * on as if no incident had held it).
 */
import type { EngineContext } from './context.ts';
import { ActError, type ErrorInfo } from './errors.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import type { Vars } from './model/types.ts';
import type { Node } from './tree/node.ts';
import type { NodeTree } from './tree/compile.ts';
import { noControl, type ControlAction, type ControlState, type ControlView, type IncidentView, type PauseReason } from '../../vocab/control.ts';

export function newControl(): ControlState {
  return { ...noControl(), pass: [] };
}

/** The control of a process, created on first use (a process never controlled keeps none). */
function controlOf(proc: Process): ControlState {
  proc.control ??= newControl();
  return proc.control;
}

/** What the API shows of a process's control. */
export function controlView(proc: Process): ControlView {
  const c = proc.control;
  if (!c) return noControl();
  return { paused: c.paused, breakpoints: [...c.breakpoints], stepping: c.stepping ? [...c.stepping] : null, incidents: c.incidents.map((i) => ({ ...i })), rerunOf: c.rerunOf };
}

function changed(core: EngineContext, proc: Process): void {
  core.markProcDirty(proc);
  core.controlChanged(proc);
}

function within(task: Task, tids: readonly string[]): boolean {
  for (let t: Task | null = task; t; t = t.parent) if (tids.includes(t.tid)) return true;
  return false;
}

function pauseAt(core: EngineContext, proc: Process, control: ControlState, reason: PauseReason, task: Task | null): void {
  control.paused = { reason, tid: task?.tid ?? null, nid: task?.node.id ?? null, at: core.now() };
  control.stepping = null;
  control.pass = [];
  changed(core, proc);
}

/**
 * The gate before a task starts: true when the task is held back (the process is paused, or
 * pauses now at it). A finished process, and hooks the end of a process fired, are never held.
 */
export function holdsBack(core: EngineContext, proc: Process, task: Task): boolean {
  const control = proc.control;
  if (!control || proc.finished) return false;
  const passed = control.pass.indexOf(task.tid);
  if (passed >= 0) {
    control.pass.splice(passed, 1);
    core.markProcDirty(proc);
    return false;
  }
  if (!control.paused) {
    if (control.stepping !== null && !within(task, control.stepping)) pauseAt(core, proc, control, 'step', task);
    else if (control.breakpoints.includes(task.node.id) && !task.isHook) pauseAt(core, proc, control, 'breakpoint', task);
    else return false;
  }
  proc.held.add(task);
  return true;
}

/**
 * The tasks waiting at the gate: every open task that has not started. `proc.held` knows those
 * that reached it in this engine; after a restart the others are on their way (recovery queued
 * them), so a resume applied before they arrive must let them through as well.
 */
function waitingAtGate(proc: Process): Task[] {
  return [...proc.tasks.values()].filter((t) => t.state === 'none' || t.state === 'ready');
}

/** Lets every task waiting at the gate pass it once; those held here are queued again. */
function release(core: EngineContext, proc: Process, control: ControlState): void {
  control.pass = waitingAtGate(proc).map((t) => t.tid);
  changed(core, proc);
  const held = [...proc.held].filter((t) => !t.terminal);
  proc.held.clear();
  for (const task of held) core.schedule(proc, task);
}

function refuse(message: string): never {
  throw new ActError('action.refused', message);
}

/** The open incident on task `tid` and its task; refused when there is none. */
function incidentOn(proc: Process, tid: unknown): { incident: IncidentView; task: Task } {
  const control = proc.control;
  const incident = typeof tid === 'string' ? control?.incidents.find((i) => i.tid === tid) : undefined;
  if (!incident) {
    const open = control?.incidents.map((i) => i.tid).join(', ');
    refuse(open ? `process '${proc.pid}' has no incident on task '${String(tid)}': its open incidents are on ${open}` : `process '${proc.pid}' has no open incident`);
  }
  const task = proc.tasks.get(incident.tid);
  if (!task) refuse(`the task '${incident.tid}' of the incident is not in process '${proc.pid}'`);
  return { incident, task };
}

function nodeIds(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length === 0 || v.length > 128) || value.length > 500) {
    throw new ActError('action.invalid_options', 'set_breakpoints needs options.nodes: a list of at most 500 node ids');
  }
  return [...new Set(value as string[])];
}

/** How the engine carries out what an incident's resolution decides (flow.ts: respawn, escalate). */
export interface IncidentFlow {
  /** Runs the node of a failed act again: a new task in its place. */
  retry(task: Task): void;
  /** The error goes on from the act as if no incident had held it (catches of the enclosing tasks, the root). */
  fail(task: Task, err: ErrorInfo): void;
}

/**
 * Applies a control action (on the root task of a running process): pause, resume, step over,
 * set the breakpoints (`options.nodes`), retry or fail an incident (`options.tid`). Checks first:
 * a refused action changes nothing.
 */
export function applyControl(core: EngineContext, proc: Process, action: ControlAction, options: Vars, flow: IncidentFlow): void {
  if (proc.finished) refuse(`process '${proc.pid}' is already ${proc.state}`);
  const control = controlOf(proc);
  switch (action) {
    case 'pause':
      if (control.paused) refuse(`process '${proc.pid}' is paused already`);
      pauseAt(core, proc, control, 'operator', null);
      return;
    case 'resume':
    case 'step_over': {
      const paused = control.paused;
      if (!paused) refuse(`process '${proc.pid}' is not paused`);
      control.paused = null;
      // a step over runs the task it stopped at, or every task the pause held back, with all they contain
      control.stepping = action === 'step_over' ? (paused.tid ? [paused.tid] : waitingAtGate(proc).map((t) => t.tid)) : null;
      release(core, proc, control);
      return;
    }
    case 'set_breakpoints':
      control.breakpoints = nodeIds(options.nodes);
      changed(core, proc);
      return;
    case 'retry':
    case 'fail': {
      const { incident, task } = incidentOn(proc, options.tid);
      control.incidents = control.incidents.filter((i) => i !== incident);
      changed(core, proc);
      if (action === 'retry') flow.retry(task);
      else flow.fail(task, { ecode: incident.ecode, message: incident.message });
      return;
    }
  }
}

/**
 * What the root of a process begins with: its first step and its setup chain — or, for a re-run
 * from a step, that step in place of the first.
 */
export function rootHeads(proc: Process): Node[] {
  const heads = proc.tree.root.heads;
  const from = proc.control?.rerunOf?.from;
  if (!from) return heads;
  const step = proc.tree.nodes.get(from);
  return step ? heads.map((n) => (n.kind === 'step' ? step : n)) : heads;
}

/**
 * The step a re-run may start from: a step of the workflow's own list (not one inside a branch
 * or a catch), checked before the new process is written.
 */
export function rerunStep(tree: NodeTree, nid: string): Node {
  const node = tree.nodes.get(nid);
  if (!node || node.kind !== 'step' || node.parent !== tree.root) {
    const steps = [...tree.nodes.values()].filter((n) => n.kind === 'step' && n.parent === tree.root).map((n) => n.id);
    throw new ActError('process.rerun_step', `a re-run starts from one of the workflow's own steps (${steps.join(', ')}); '${nid}' is not one`);
  }
  return node;
}

/**
 * The start inputs of a re-run of `proc` from step `from`: the inputs it started with, then the
 * outputs of the workflow's steps it completed before that step first started (all it completed,
 * when the step never ran) — what that step saw of the steps before it.
 */
export function rerunInputs(proc: Process, from: string): Vars {
  const root = proc.root;
  const inputs: Vars = { ...(root?.inputs ?? {}) };
  const first = [...proc.tasks.values()].find((t) => t.node.id === from && t.parent === root);
  for (const t of proc.tasks.values()) {
    if (t.parent !== root || t.kind !== 'step' || (first && t.seq >= first.seq)) continue;
    if (t.state === 'completed' || t.state === 'submitted') Object.assign(inputs, t.outputs ?? {});
  }
  return inputs;
}

/** Whether an incident holds the task (its parent waits for an operator instead of finishing). */
export function heldByIncident(proc: Process, task: Task): boolean {
  return !!proc.control && task.state === 'error' && proc.control.incidents.some((i) => i.tid === task.tid);
}

/**
 * Whether the error of act `task` becomes an incident: incidents are on for the process (its
 * workflow's `incidents`, else the server's setting), the task is an act outside hooks, the error
 * is not a declared outcome, and no catch of an enclosing task would handle it.
 */
export function becomesIncident(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): boolean {
  if (!(proc.workflow.incidents ?? core.incidents) || task.kind !== 'act' || task.inHook || err.outcome !== undefined) return false;
  for (let t = task.parent; t; t = t.parent) {
    if (!t.caught && t.node.catches.some((c) => c.on === undefined || c.on === err.ecode)) return false;
  }
  return true;
}

/**
 * A task closed: the incidents under it no longer matter (nothing could go on from their act) and
 * are dropped. Returns whether any was (the caller writes the process row and tells the change).
 */
export function dropIncidentsUnder(proc: Process, closed: Task): boolean {
  const control = proc.control;
  if (!control || control.incidents.length === 0) return false;
  const kept = control.incidents.filter((i) => {
    const task = proc.tasks.get(i.tid);
    return !task || task === closed || !within(task, [closed.tid]);
  });
  if (kept.length === control.incidents.length) return false;
  control.incidents = kept;
  return true;
}

/** Holds the failed act as an incident (its error is set and told already). */
export function openIncident(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  const control = controlOf(proc);
  control.incidents.push({ tid: task.tid, nid: task.node.id, ecode: err.ecode, message: err.message, at: core.now() });
  changed(core, proc);
}
