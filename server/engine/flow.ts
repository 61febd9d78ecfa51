/**
 * The task algorithm (spec 2.3 with section 0's fixes) after a task ran (exec.ts): a running task
 * proceeds once its children are done; a finished task propagates (schedules its successor or
 * reviews its parent, re-deciding the parent's pending branches); an error runs the task's catch
 * rules and otherwise escalates to the parent, skipping the siblings it abandons.
 */
import type { EngineContext } from './context.ts';
import { errorMessage, TaskFailure, type ErrorInfo } from './errors.ts';
import { close, closeSubtree, emit, emitMessage, spawn, whenEvaluated } from './task-ops.ts';
import { boundedOutputs, checkedOutputs, closedOutputsOf, outputsOf, validateExposes } from './task-data.ts';
import { branchSiblings, condition, elseDecision, neededDone } from './branches.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import type { TaskState } from '../../vocab/states.ts';
import { asBranch, type Node } from './tree/node.ts';
import type { Vars } from './model/types.ts';
import { markOutputs, mergeData } from './vars.ts';
import { endOnOutcome, finishProcess } from './finish.ts';
import { closingsOf, dropAhead, evaluateAhead } from './closing.ts';
import { isStepBudgetError } from './step-budget.ts';
import { redactError, redactText } from './redaction.ts';
import { becomesIncident, heldByIncident, openIncident, type IncidentFlow } from './control.ts';

/** Engine-raised errors (scripts, packages, bad params) carry an empty ecode (spec 2.9); a `TaskFailure` its own. */
export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof TaskFailure) return { ...err.info };
  return { ecode: '', message: errorMessage(err) };
}

/** Runs `fn`; an exception fails `task` (unless an action already closed it). */
export function guard(core: EngineContext, proc: Process, task: Task, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    // an endless loop ends its process: a catch would only loop again
    if (isStepBudgetError(err)) failProcess(core, proc, toErrorInfo(err));
    else failTask(core, proc, task, redactError(task, toErrorInfo(err)));
  }
}

/** A job's work on a task: `guard`, and an exception that escapes even the guard is a `panic`. */
export function taskJob(core: EngineContext, proc: Process, task: Task, fn: () => void): void {
  try {
    guard(core, proc, task, fn);
  } catch (err) {
    panic(core, proc, task, err);
  }
}

/**
 * An exception escaped the task guard (spec 5.11): an engine defect, or a failure while the
 * task's own error was reported. The task fails with "scheduler task panicked: …" and the error
 * propagates as any other (catches apply); a task already closed hands it to its parent. When even
 * that fails, the process ends in error without running more code, so it never hangs.
 */
export function panic(core: EngineContext, proc: Process, task: Task, err: unknown): void {
  const said = redactText(errorMessage(err), task.secretValues ?? []);
  const error: ErrorInfo = { ecode: '', message: `scheduler task panicked: ${said}` };
  core.log.error(`task ${proc.pid}:${task.tid} (${task.kind} '${task.node.id}') panicked: ${said}`);
  try {
    let target: Task | null = task;
    while (target && target.terminal) target = target.parent;
    if (target) failTask(core, proc, target, error);
    else if (!proc.finished) failProcess(core, proc, error);
  } catch (again) {
    core.log.error(`reporting the panic of ${proc.pid}:${task.tid} failed (${errorMessage(again)}); the process ends in error`);
    failProcess(core, proc, error);
  }
}

/** The last resort of a panic: every open task is closed, the root fails, the process ends. */
function failProcess(core: EngineContext, proc: Process, error: ErrorInfo): void {
  const root = proc.root;
  if (!root || proc.finished) return;
  for (const t of [...proc.tasks.values()].reverse()) {
    if (t === root || t.terminal || t.isHook) continue;
    t.propagated = true;
    core.setState(proc, t, 'skipped');
  }
  root.propagated = true;
  if (!root.terminal) core.setError(proc, root, error);
  emitMessage(core, proc, root);
  finishProcess(core, proc);
}

/**
 * A job that proceeds with `task` again. Returned rather than bound to a local: the build that runs
 * the server (tsx, keepNames) names every function bound to a local as it is made, which costs
 * more than making it.
 */
function proceedAgain(core: EngineContext, proc: Process, task: Task): () => void {
  return () => taskJob(core, proc, task, () => proceed(core, proc, task));
}

/** A running task finishes once every child that decides its fate is terminal. */
export function proceed(core: EngineContext, proc: Process, task: Task): void {
  if (task.state !== 'running') return;
  if (task.kind === 'step') resumePending(core, proc, task);
  if (task.state !== 'running') return;
  const children = proc.workChildren(task);
  // a child held by an incident waits for an operator (control.ts): so does its parent
  if (children.some((c) => !c.terminal || heldByIncident(proc, c))) return;
  if (task.kind === 'act' && !task.autoComplete) return;
  const retry = proceedAgain(core, proc, task);
  const outputs = whenEvaluated(core, proc, task, () => (task.tid === '$' || task.outputs === undefined ? outputsOf(core, proc, task) : task.outputs), retry);
  if (!outputs) return;
  // what finishing closes (a loop jump, the end): its outputs too, before anything changes
  const ahead = closingsOf(core, proc, (plan) => plan.finishing(task, 'completed'));
  if (ahead.length > 0) {
    // a jump passes them up; the retry's window takes them back instead of evaluating again
    task.closingOutputs = outputs.value;
    if (!evaluateAhead(core, proc, ahead, retry)) return;
  }
  try {
    finish(core, proc, task, 'completed', outputs.value);
  } finally {
    dropAhead([task, ...ahead]);
  }
}

/**
 * Closes a task with a non-error state, emits it and propagates (`outputs`: evaluated already).
 * A task that completes with outputs above `value_cap_bytes` fails instead (its message leaves
 * them out); the outputs of a skipped or removed task are bounded.
 */
export function finish(core: EngineContext, proc: Process, task: Task, state: TaskState, outputs?: Vars): void {
  const evaluated = task.outputs ?? outputs ?? outputsOf(core, proc, task);
  let final: Vars;
  try {
    final = passesOutputs(state) ? checkedOutputs(core, task, evaluated) : boundedOutputs(core, task, evaluated);
  } catch (err) {
    // its error message carries no outputs (the templates are not evaluated again for it)
    task.closingOutputs = {};
    failTask(core, proc, task, toErrorInfo(err));
    return;
  }
  if (task.tid === '$' && state === 'completed') {
    const problem = validateExposes(proc, final);
    if (problem) {
      task.outputs = final;
      failTask(core, proc, task, { ecode: '', message: problem });
      return;
    }
  }
  core.setState(proc, task, state);
  task.outputs = final;
  emit(core, proc, task);
  propagate(core, proc, task);
}

/** The states whose outputs travel on to the parent (and so must fit `value_cap_bytes`). */
function passesOutputs(state: TaskState): boolean {
  return state === 'completed' || state === 'submitted';
}

/**
 * The open parent a finished task reports to. The root has none: its end finishes the process.
 * A parent already closed (by an action) takes no more reports.
 */
function reportTarget(core: EngineContext, proc: Process, task: Task): Task | null {
  const parent = task.parent;
  if (!parent) {
    finishProcess(core, proc);
    return null;
  }
  return parent.terminal ? null : parent;
}

/** After a non-error terminal state: schedule the successor or review the parent. */
export function propagate(core: EngineContext, proc: Process, task: Task): void {
  if (task.propagated) return;
  task.propagated = true;
  if (task.isHook) return;
  const parent = reportTarget(core, proc, task);
  if (!parent) return;
  if (passesOutputs(task.state)) passOutputs(parent, task.outputs ?? closedOutputsOf(core, proc, task));
  if ((task.state === 'completed' || task.state === 'skipped') && task.node.next) {
    scheduleSuccessor(core, proc, task, task.node.next);
    return;
  }
  review(core, proc, parent);
}

/** A finished child's outputs become the parent's data and outputs (they travel on up). */
function passOutputs(parent: Task, outputs: Vars): void {
  mergeData(parent, outputs);
  markOutputs(parent, outputs);
}

/** A child finished: the parent may now be done. */
export function review(core: EngineContext, proc: Process, parent: Task): void {
  guard(core, proc, parent, () => proceed(core, proc, parent));
}

/**
 * Schedules the successor node. For a jump (`next` into an enclosing list, e.g. a loop) the
 * enclosing tasks it leaves are closed as completed (section 0.17) and whatever is still open
 * under them is skipped.
 */
function scheduleSuccessor(core: EngineContext, proc: Process, task: Task, next: Node): void {
  const superseded: Task[] = [];
  let parent = task.parent;
  while (parent && parent.node !== next.parent) {
    superseded.push(parent);
    parent = parent.parent;
  }
  if (!parent) {
    failTask(core, proc, task.parent ?? task, {
      ecode: '',
      message: `step '${task.node.id}' cannot continue with '${next.id}': it is not in the same list or an enclosing one`,
    });
    return;
  }
  for (const t of superseded) {
    if (t.terminal) continue;
    // the iteration left behind: its waiting `else` branch, a parallel branch, an escalation
    closeSubtree(core, proc, t, 'skipped');
    t.propagated = true;
    core.setState(proc, t, 'completed');
    t.outputs = closedOutputsOf(core, proc, t);
    emit(core, proc, t);
    if (t.parent) passOutputs(t.parent, t.outputs);
  }
  spawn(core, proc, next, task, parent);
}

/**
 * Sets the task in error, runs its catch rules, else escalates to the parent (spec 2.3, 2.9). With
 * code workers the outputs of what the error closes are evaluated first (closing.ts): when one
 * goes to a worker, nothing changes now and the error is reported again, in the held lane, once
 * the worker answered — the task is left as it was, which a restart takes up again (recover.ts).
 */
export function failTask(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  const ahead = task.terminal ? [] : closingsOf(core, proc, (plan) => plan.escalation(task, err.ecode));
  if (!evaluateAhead(core, proc, ahead, () => failAgain(core, proc, task, err))) return;
  try {
    failNow(core, proc, task, err);
  } finally {
    dropAhead(ahead);
  }
}

/** A deferred error reported in its own job; what escapes it is a panic, as in the job it came from. */
function failAgain(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  try {
    failTask(core, proc, task, err);
  } catch (again) {
    panic(core, proc, task, again);
  }
}

/** `failTask` with the outputs of what it closes evaluated here (or ahead already: an action's `error`). */
export function failNow(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  if (task.terminal) {
    core.log.warn(`task ${proc.pid}:${task.tid} is already ${task.state}; error '${err.message}' ignored`);
    return;
  }
  // an outcome's ecode that nothing caught: the run ends on the outcome, not in error
  if (err.outcome !== undefined && task === proc.root) return endOnOutcome(core, proc, task, err.outcome);
  core.setError(proc, task, err);
  emit(core, proc, task);
  core.fault('error:reporting');
  const rule = task.caught ? undefined : task.node.catches.find((c) => c.on === undefined || c.on === err.ecode);
  if (rule) {
    task.caught = true;
    core.setState(proc, task, 'running');
    emitMessage(core, proc, task);
    if (rule.head) spawn(core, proc, rule.head, task, task);
    else proceed(core, proc, task);
    return;
  }
  if (becomesIncident(core, proc, task, err)) {
    settleFailed(core, proc, task);
    openIncident(core, proc, task, err);
    return;
  }
  escalate(core, proc, task, err);
}

/** What a failed act leaves behind it: a subflow child, a setup chain still open under it. */
function settleFailed(core: EngineContext, proc: Process, task: Task): void {
  // a subflow act that failed for good no longer waits for its child
  core.abortChild(task);
  // nor can what still runs under it matter (an act's setup chain waiting beside its code)
  closeSubtree(core, proc, task, 'skipped');
}

function escalate(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  settleFailed(core, proc, task);
  if (task.isHook) return;
  const parent = reportTarget(core, proc, task);
  if (!parent) return;
  for (const sibling of proc.children(parent)) {
    if (sibling === task || sibling.isHook || sibling.terminal) continue;
    closeSubtree(core, proc, sibling, 'skipped');
    close(core, proc, sibling, 'skipped');
  }
  failNow(core, proc, parent, err);
}

/**
 * How an operator's resolution of an incident goes on (control.ts): a retry runs the act's node
 * again as a new task in its place (the failed one stays, in `error`, as the record of the failed
 * attempt); a fail lets the error go on up as if no incident had held it.
 */
export function incidentFlow(core: EngineContext, proc: Process): IncidentFlow {
  return {
    retry: (task) => {
      const parent = task.parent;
      if (!parent) throw new TaskFailure({ ecode: '', message: `task '${task.tid}' has no parent to run it again in` });
      spawn(core, proc, task.node, task.prev ?? parent, parent);
    },
    fail: (task, err) => escalate(core, proc, task, err),
  };
}

/**
 * Re-checks pending branches of a running step (called whenever a child of the step finished),
 * until none changes: a branch skipped here may release a branch that needs it.
 */
function resumePending(core: EngineContext, proc: Process, step: Task): void {
  let changed = true;
  while (changed && step.state === 'running') {
    changed = false;
    for (const branch of proc.children(step)) {
      if (branch.kind === 'branch' && branch.state === 'pending' && resumeBranch(core, proc, branch)) changed = true;
    }
  }
}

/** Decides one pending branch if it can be decided now; returns whether it left `pending`. */
function resumeBranch(core: EngineContext, proc: Process, branch: Task): boolean {
  const b = asBranch(branch.node);
  let decision: 'ready' | 'skipped' | null;
  if (b.needs.length > 0) {
    if (!neededDone(proc, branch)) return false;
    decision = null;
    guard(core, proc, branch, () => {
      decision = condition(core, proc, branch) ? 'ready' : 'skipped';
    });
    if (branch.terminal) return true;
  } else {
    decision = elseDecision(branchSiblings(proc, branch));
  }
  if (decision === 'skipped') close(core, proc, branch, 'skipped');
  else if (decision === 'ready') {
    core.setState(proc, branch, 'ready');
    core.schedule(proc, branch);
  }
  return decision !== null;
}
