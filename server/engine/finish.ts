/**
 * A process's start and end. Start: the root became ready, the process runs and `on_start` goes
 * out. End (spec 2.13, 5.14): the root task reached a terminal state, so every task still open is
 * closed (but the hooks the end fired), process events go out, and a subflow child reports to its
 * parent act.
 */
import type { EngineContext } from './context.ts';
import { close, emit } from './task-ops.ts';
import { buildMessage } from './messages.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { ROW_ID_LENGTH } from './model/ids.ts';
import { OUTCOME_KEY } from '../../vocab/outcomes.ts';
import { mergeData } from './vars.ts';

/** The root became ready: the process runs (`on_start`). */
export function processStarted(core: EngineContext, proc: Process): void {
  const root = proc.root;
  if (!root) return;
  proc.state = 'running';
  core.markProcDirty(proc);
  core.publishProcessEvent(proc, 'start', buildMessage(proc, root, core.newId(ROW_ID_LENGTH), {}, core.now()));
}

/** Whether the end of the process closes an open task: all but the hooks the end fired itself (created by this job, not started yet), which still run. */
export function closedByTheEnd(core: EngineContext, task: Task): boolean {
  return !(task.isHook && task.state === 'none' && task.createdInBatch === core.batchSeq);
}

export function finishProcess(core: EngineContext, proc: Process): void {
  const root = proc.root;
  if (!root || proc.endTime !== 0) return;
  for (const t of [...proc.tasks.values()].reverse()) {
    if (t.terminal || t === root) continue;
    if (closedByTheEnd(core, t)) close(core, proc, t, 'skipped');
    // durable with the end: a restart runs it although the process is no longer loaded (see schedule)
    else core.recordExec(proc, t);
  }
  proc.state = root.state;
  proc.err = root.err;
  // an ended process is neither paused nor held by an incident any more (its breakpoints stay on record)
  if (proc.control) {
    const told = proc.control.paused !== null || proc.control.incidents.length > 0;
    Object.assign(proc.control, { paused: null, stepping: null, incidents: [], pass: [] });
    if (told) core.controlChanged(proc);
  }
  proc.held.clear();
  proc.outcome = root.state === 'completed' ? proc.outcome : null;
  proc.endTime = core.now();
  proc.outputs = root.state === 'completed' ? (root.outputs ?? {}) : {};
  core.markProcDirty(proc);
  const message = buildMessage(proc, root, core.newId(ROW_ID_LENGTH), proc.outputs, core.now());
  core.publishProcessEvent(proc, root.state === 'error' ? 'error' : 'complete', message);
  abortChildren(core, proc);
  core.toParent(proc);
  core.ended(proc);
}

/**
 * The ecode of a declared outcome (vocab/outcomes.ts) reached the root uncaught: the run ends
 * `completed` on that outcome rather than in error. `proc.outcome`, the outputs `{ outcome }` and
 * the variable `outcome` name it; the workflow's `outputs` and `exposes` do not apply. The tasks
 * the ecode escaped on its way keep their error state.
 */
export function endOnOutcome(core: EngineContext, proc: Process, root: Task, outcome: string): void {
  root.propagated = true;
  // a variable too, for the workflow's hooks (and the run's variables), as a completing outcome's is
  mergeData(root, { [OUTCOME_KEY]: outcome });
  core.setState(proc, root, 'completed');
  root.outputs = { [OUTCOME_KEY]: outcome };
  proc.outcome = outcome;
  emit(core, proc, root);
  finishProcess(core, proc);
}

/**
 * Abort (spec 3.2): the target and every ancestor up to the root are aborted; other open tasks are
 * aborted when running and skipped when waiting. The process ends `aborted` (reported through
 * `on_complete`).
 */
export function abortProcess(core: EngineContext, proc: Process, target: Task, initiator?: Task): void {
  const ancestors = new Set<Task>();
  for (let t: Task | null = target; t; t = t.parent) ancestors.add(t);
  const open = [...proc.tasks.values()].filter((t) => !t.terminal && !t.isHook && t !== initiator && !ancestors.has(t));
  for (let i = open.length - 1; i >= 0; i--) close(core, proc, open[i], open[i].state === 'running' ? 'aborted' : 'skipped');
  for (const t of ancestors) {
    if (t.terminal) continue;
    t.propagated = true;
    core.setState(proc, t, 'aborted');
    if (t.tid !== '$') emit(core, proc, t);
  }
  const root = proc.root;
  if (root) {
    emit(core, proc, root);
    finishProcess(core, proc);
  }
}

/** Aborts running child processes of subflow acts of a process that ended. */
function abortChildren(core: EngineContext, proc: Process): void {
  for (const task of proc.tasks.values()) if (task.childPid) core.abortChild(task);
}
