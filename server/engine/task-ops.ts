/**
 * The task algorithm's primitives (spec 2.3): create and queue tasks, emit a state change (and
 * fire the hooks it triggers), close tasks whose fate was decided from outside, and the expression
 * window. None of them moves the algorithm on to a next task or a parent: that is flow.ts.
 */
import type { EngineContext } from './context.ts';
import { fireLifecycleHooks } from './hooks.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { isTerminal, type TaskState } from '../../vocab/states.ts';
import { buildMessage, emitsMessage } from './messages.ts';
import { closedOutputsOf } from './task-data.ts';
import type { Node } from './tree/node.ts';
import type { ScriptScope } from './sandbox/types.ts';
import { EvalChain } from './expr/eval-chain.ts';
import { ROW_ID_LENGTH } from './model/ids.ts';
import { rootHeads } from './control.ts';

/** Emits a task event and fires the lifecycle hooks it triggers. */
export function emit(core: EngineContext, proc: Process, task: Task): void {
  emitMessage(core, proc, task);
  fireLifecycleHooks(core, proc, task);
}

/** Tells a task's state change: its row, the runtime's event, and its message (when the state produces one). */
export function emitMessage(core: EngineContext, proc: Process, task: Task): void {
  core.taskChanged(proc, task);
  if (!emitsMessage(task)) return;
  const outputs = isTerminal(task.state) ? (task.outputs ?? closedOutputsOf(core, proc, task)) : {};
  core.publish(buildMessage(proc, task, core.newId(ROW_ID_LENGTH), outputs, core.now()));
}

/** Creates a task for `node` and queues its execution. */
export function spawn(core: EngineContext, proc: Process, node: Node, prev: Task, parent: Task): Task {
  const task = core.createTask(proc, node, prev, parent);
  core.schedule(proc, task);
  return task;
}

/** Starts the children a task begins with (branches, first step/act, setup chain). */
export function startHeads(core: EngineContext, proc: Process, task: Task): void {
  const heads = task === proc.root ? rootHeads(proc) : task.node.heads;
  const created = heads.map((node) => core.createTask(proc, node, task, task));
  for (const child of created) core.schedule(proc, child);
}

/**
 * Runs expression work of a task placed before its state changes (see expr/trials.ts). Returns
 * its value; or, when an expression of it moved to a code worker, undefined — the lane of the
 * process is held and `retry` runs first in it once the worker answered, to redo the work.
 * Without code workers every expression runs here, in full. `gone`: the process or the task left
 * this engine's hands while the worker ran (the work is not redone here). `scope`: what the
 * worker's evaluation sees, when the work evaluates in another than the task's (closing.ts).
 */
export function whenEvaluated<T>(
  core: EngineContext,
  proc: Process,
  task: Task,
  work: () => T,
  retry: () => void,
  gone?: () => void,
  scope?: ScriptScope,
): { value: T } | undefined {
  if (!core.codePool) return { value: work() };
  const chain = proc.evalChain;
  chain?.joins(task);
  const attempt = core.trials.attempt(task, work, chain !== undefined);
  if (attempt.done) return attempt;
  chain?.waits();
  const { key, source, mode } = attempt.pending;
  const evaluation = core.codePool.evaluate(source, scope ?? core.scopeOf(proc, task), mode);
  core.offLane(proc.pid, `expression ${task.tid}`, evaluation, (outcome) => {
    if (!core.stillRuns(proc, task)) {
      endChain(proc);
      return gone?.();
    }
    core.fault('expression:answered');
    (task.evalMemo ??= new Map()).set(key, outcome);
    const current = (proc.evalChain ??= new EvalChain());
    current.joins(task);
    if (current.rerun(retry) && proc.evalChain === current) proc.evalChain = undefined;
  });
  return undefined;
}

/** The process or task left while a worker ran: the answers its chain kept go. */
function endChain(proc: Process): void {
  proc.evalChain?.end();
  proc.evalChain = undefined;
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
