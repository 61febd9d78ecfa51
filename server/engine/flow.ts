/**
 * The task algorithm (spec 2.3 with section 0's fixes): exec = init → run → proceed; a finished
 * task propagates (schedules its successor or reviews its parent); an error runs the task's catch
 * rules and otherwise escalates to the parent, skipping the siblings it abandons.
 */
import type { EngineContext } from './context.ts';
import { errorMessage, type ErrorInfo } from './errors.ts';
import { fireLifecycleHooks } from './hooks.ts';
import { initTask, resumePending, runTask } from './kinds.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import type { TaskState } from '../../vocab/states.ts';
import type { Node } from './tree/node.ts';
import type { Vars } from './model/types.ts';
import { markOutputs, mergeData } from './vars.ts';
import { finishProcess } from './finish.ts';
import { isStepBudgetError } from './step-budget.ts';

/** Engine-raised errors (scripts, packages, bad params) carry an empty ecode (spec 2.9). */
export function toErrorInfo(err: unknown): ErrorInfo {
  return { ecode: '', message: errorMessage(err) };
}

/** Emits a task event and fires the lifecycle hooks it triggers. */
export function emit(core: EngineContext, proc: Process, task: Task): void {
  core.emitMessage(proc, task);
  fireLifecycleHooks(core, proc, task);
}

/** Creates a task for `node` and queues its execution. */
export function spawn(core: EngineContext, proc: Process, node: Node, prev: Task, parent: Task): Task {
  const task = core.createTask(proc, node, prev, parent);
  core.schedule(proc, task);
  return task;
}

/** Starts the children a task begins with (branches, first step/act, setup chain). */
export function startHeads(core: EngineContext, proc: Process, task: Task): void {
  const created = task.node.heads.map((node) => core.createTask(proc, node, task, task));
  for (const child of created) core.schedule(proc, child);
}

/** Runs `fn`; an exception fails `task` (unless an action already closed it). */
export function guard(core: EngineContext, proc: Process, task: Task, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    // an endless loop ends its process: a catch would only loop again
    if (isStepBudgetError(err)) failProcess(core, proc, toErrorInfo(err));
    else failTask(core, proc, task, toErrorInfo(err));
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
 * Runs expression work of a task placed before its state changes (see expr/trials.ts). Returns
 * its value; or, when an expression of it moved to a code worker, undefined — the lane of the
 * process is held and `retry` runs first in it once the worker answered, to redo the work.
 * Without code workers every expression runs here, in full. `gone`: the process or the task left
 * this engine's hands while the worker ran (the work is not redone here).
 */
export function whenEvaluated<T>(core: EngineContext, proc: Process, task: Task, work: () => T, retry: () => void, gone?: () => void): { value: T } | undefined {
  if (!core.codePool) return { value: work() };
  const attempt = core.trials.attempt(task, work);
  if (attempt.done) return attempt;
  const { key, source, mode } = attempt.pending;
  const evaluation = core.codePool.evaluate(source, core.scopeOf(proc, task), mode);
  core.offLane(proc.pid, `expression ${task.tid}`, evaluation, (outcome) => {
    if (!core.stillRuns(proc, task)) return gone?.();
    (task.evalMemo ??= new Map()).set(key, outcome);
    retry();
  });
  return undefined;
}

/** One job: init → run → proceed, as far as the task's state allows. */
export function exec(core: EngineContext, proc: Process, task: Task): void {
  if (proc.abandoned) return;
  if (task.terminal) {
    core.log.warn(`task ${proc.pid}:${task.tid} is already ${task.state}; not executed again`);
    return;
  }
  taskJob(core, proc, task, () => {
    if (task.state === 'none') initTask(core, proc, task);
    if (task.state === 'ready') runTask(core, proc, task);
    if (task.state === 'running') proceed(core, proc, task);
    else if (task.terminal && task.state !== 'error') propagate(core, proc, task);
  });
}

/**
 * An exception escaped the task guard (spec 5.11): an engine defect, or a failure while the
 * task's own error was reported. The task fails with "scheduler task panicked: …" and the error
 * propagates as any other (catches apply); a task already closed hands it to its parent. When even
 * that fails, the process ends in error without running more code, so it never hangs.
 */
export function panic(core: EngineContext, proc: Process, task: Task, err: unknown): void {
  const error: ErrorInfo = { ecode: '', message: `scheduler task panicked: ${errorMessage(err)}` };
  core.log.error(`task ${proc.pid}:${task.tid} (${task.kind} '${task.node.id}') panicked: ${errorMessage(err)}`);
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
  core.emitMessage(proc, root);
  finishProcess(core, proc);
}

/** A running task finishes once every child that decides its fate is terminal. */
export function proceed(core: EngineContext, proc: Process, task: Task): void {
  if (task.state !== 'running') return;
  if (task.kind === 'step') resumePending(core, proc, task);
  if (task.state !== 'running') return;
  const children = proc.workChildren(task);
  if (children.some((c) => !c.terminal)) return;
  if (task.kind === 'act' && !task.autoComplete) return;
  const outputs = whenEvaluated(
    core,
    proc,
    task,
    () => (task.tid === '$' || task.outputs === undefined ? core.outputsOf(proc, task) : task.outputs),
    () => taskJob(core, proc, task, () => proceed(core, proc, task)),
  );
  if (outputs) finish(core, proc, task, 'completed', outputs.value);
}

/** Closes a task with a non-error state, emits it and propagates (`outputs`: evaluated already). */
export function finish(core: EngineContext, proc: Process, task: Task, state: TaskState, outputs?: Vars): void {
  if (task.tid === '$' && state === 'completed') {
    const problem = finishRootChecks(core, proc, task, outputs);
    if (problem) {
      failTask(core, proc, task, problem);
      return;
    }
  }
  core.setState(proc, task, state);
  task.outputs ??= outputs ?? core.outputsOf(proc, task);
  emit(core, proc, task);
  propagate(core, proc, task);
}

/** Validates the final outputs against `exposes` (spec 5.12). */
function finishRootChecks(core: EngineContext, proc: Process, root: Task, outputs: Vars | undefined): ErrorInfo | null {
  root.outputs = outputs ?? core.outputsOf(proc, root);
  const problem = core.validateExposes(proc, root.outputs);
  return problem ? { ecode: '', message: problem } : null;
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
  if (task.state === 'completed' || task.state === 'submitted') passOutputs(parent, task.outputs ?? core.outputsOf(proc, task));
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
    t.outputs = core.outputsOf(proc, t);
    emit(core, proc, t);
    if (t.parent) passOutputs(t.parent, t.outputs);
  }
  spawn(core, proc, next, task, parent);
}

/** Marks every non-terminal task under `task` with `state` (emitting each), innermost first. */
export function closeSubtree(core: EngineContext, proc: Process, task: Task, state: TaskState, except?: Task): void {
  const tasks = proc.descendants(task).filter((t) => !t.terminal && !t.isHook && t !== except);
  for (let i = tasks.length - 1; i >= 0; i--) close(core, proc, tasks[i], state);
}

/** Closes one task without propagating (its fate was decided from outside). */
export function close(core: EngineContext, proc: Process, task: Task, state: TaskState): void {
  if (task.terminal) return;
  task.propagated = true;
  core.setState(proc, task, state);
  emit(core, proc, task);
  core.abortChild(task);
}

/** Sets the task in error, runs its catch rules, else escalates to the parent (spec 2.3, 2.9). */
export function failTask(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  if (task.terminal) {
    core.log.warn(`task ${proc.pid}:${task.tid} is already ${task.state}; error '${err.message}' ignored`);
    return;
  }
  core.setError(proc, task, err);
  emit(core, proc, task);
  core.fault('error:reporting');
  const rule = task.caught ? undefined : task.node.catches.find((c) => c.on === undefined || c.on === err.ecode);
  if (rule) {
    task.caught = true;
    core.setState(proc, task, 'running');
    core.emitMessage(proc, task);
    if (rule.head) spawn(core, proc, rule.head, task, task);
    else proceed(core, proc, task);
    return;
  }
  escalate(core, proc, task, err);
}

function escalate(core: EngineContext, proc: Process, task: Task, err: ErrorInfo): void {
  // a subflow act that failed for good no longer waits for its child
  core.abortChild(task);
  if (task.isHook) return;
  const parent = reportTarget(core, proc, task);
  if (!parent) return;
  for (const sibling of proc.children(parent)) {
    if (sibling === task || sibling.isHook || sibling.terminal) continue;
    closeSubtree(core, proc, sibling, 'skipped');
    close(core, proc, sibling, 'skipped');
  }
  failTask(core, proc, parent, err);
}
