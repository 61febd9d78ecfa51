/**
 * The outputs of tasks closed from outside, evaluated ahead (issue 10, item 1). The message of a
 * task closed by something else than its own end — the act an action answers and what closes
 * with it, the failing tasks of an escalation and the siblings it skips, what the end of the
 * process closes, the enclosing tasks a loop jump leaves — carries outputs whose templates may run
 * long. With code workers, an operation that closes tasks first evaluates those outputs, each in
 * a window of its task (expr/trials.ts), before it changes anything. One that goes to a worker
 * stops the operation; its caller runs the whole operation again once the worker answered. What
 * was evaluated stays on the tasks (`Task.closingOutputs`) and each closing takes its task's, so
 * the retries converge.
 *
 * A plan lists the closings in the order the operation makes them — each task once, a task closed
 * earlier in the plan counting as closed — with the data that reaches a task before the closings
 * after it (a finished child's outputs a jump passes up, an internal action's options). That data
 * is not written: the outputs are evaluated over it (vars.ts `PendingData`), so a plan that waits
 * for a worker has changed nothing, and a crash meanwhile loses nothing.
 */
import type { EngineContext } from './context.ts';
import { closedByTheEnd } from './finish.ts';
import { emitsMessageIn } from './messages.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { ScriptScope } from './sandbox/types.ts';
import { Task } from './task.ts';
import { outputsOf } from './task-data.ts';
import { whenEvaluated } from './task-ops.ts';
import type { TaskState } from '../../vocab/states.ts';
import { PendingData } from './vars.ts';
import { scopeReadingFrom } from './scope.ts';

/** Data that reaches a task before the closings after it (read when the plan gets there). */
interface Passing {
  into: Task;
  vars: () => Vars | undefined;
  asOutputs: boolean;
}

/** A task whose outputs a closing needs, or data on its way to a task. */
export type Closing = Task | Passing;

/** The closings of one operation, built in the order it makes them. */
export class ClosingPlan {
  readonly closings: Closing[] = [];
  private readonly closed = new Set<Task>();

  constructor(
    private readonly core: EngineContext,
    private readonly proc: Process,
  ) {}

  /** Whether `task` is closed by this point of the plan. */
  isClosed(task: Task): boolean {
    return task.terminal || this.closed.has(task);
  }

  /** Counts `task` as closed by the operation without needing its outputs (an internal action's act). */
  settle(task: Task): void {
    this.closed.add(task);
  }

  /** A task whose outputs the operation needs whatever it emits (an action's act, a task a jump leaves). */
  evaluate(task: Task): void {
    if (this.closed.has(task)) return;
    this.closed.add(task);
    this.closings.push(task);
  }

  /** A task the operation closes into `state`; its outputs when its message carries them (and they are not known yet). */
  close(task: Task, state: TaskState): void {
    if (this.isClosed(task)) return;
    this.closed.add(task);
    if (emitsMessageIn(task, state) && task.outputs === undefined) this.closings.push(task);
  }

  /** What `closeSubtree(task, state, except)` closes: the open tasks under it, innermost first. */
  subtree(task: Task, state: TaskState, except?: Task): void {
    const under = this.proc.descendants(task).filter((t) => !t.isHook && t !== except);
    for (let i = under.length - 1; i >= 0; i--) this.close(under[i], state);
  }

  /** What skipping the siblings of `task` closes (actions' skipSiblings, flow's escalate). */
  siblings(task: Task, except?: Task): void {
    if (!task.parent) return;
    for (const s of this.proc.children(task.parent)) {
      if (s === task || s === except || s.isHook || this.isClosed(s)) continue;
      this.subtree(s, 'skipped', except);
      this.close(s, 'skipped');
    }
  }

  /** Data `into` receives from `vars` (mergeData, and markOutputs when `asOutputs`). */
  pass(into: Task, vars: () => Vars | undefined, asOutputs: boolean): void {
    this.closings.push({ into, vars, asOutputs });
  }

  /**
   * An abort of the process from `target` (finish.ts abortProcess): the open tasks aborted when
   * running and skipped when waiting, `target` and its ancestors aborted, then the end.
   */
  abort(target: Task, except?: Task): void {
    const ancestors = new Set<Task>();
    for (let t: Task | null = target; t; t = t.parent) ancestors.add(t);
    const open = [...this.proc.tasks.values()].filter((t) => !t.isHook && t !== except && !ancestors.has(t));
    for (let i = open.length - 1; i >= 0; i--) this.close(open[i], open[i].state === 'running' ? 'aborted' : 'skipped');
    for (const t of ancestors) this.close(t, 'aborted');
    this.end();
  }

  /** The end of the process (finish.ts finishProcess): what is still open but the root and the hooks the end fires. */
  end(): void {
    for (const t of [...this.proc.tasks.values()].reverse()) if (t !== this.proc.root && closedByTheEnd(this.core, t)) this.close(t, 'skipped');
  }

  /**
   * An error of `task` (flow.ts failTask): each failing task's error message up to the one a
   * catch rule takes, what is open under each one it escapes and the siblings skipped on the way,
   * and the end when the root fails.
   */
  escalation(task: Task, ecode: string): void {
    for (let t = task; ; ) {
      this.close(t, 'error');
      if (!t.caught && t.node.catches.some((c) => c.on === undefined || c.on === ecode)) return;
      this.subtree(t, 'skipped');
      if (t.isHook) return;
      const parent = t.parent;
      if (!parent) return this.end();
      if (this.isClosed(parent)) return;
      this.siblings(t);
      t = parent;
    }
  }

  /**
   * What `task` finishing in `state` closes as it moves on (flow.ts propagate): the end after the
   * root; for a loop jump, each enclosing task it leaves — completed after what is still open under
   * it was skipped, with outputs that travel on up — or, for a jump that cannot be made, the error
   * of its parent.
   */
  finishing(task: Task, state: TaskState): void {
    if (task.isHook) return;
    const parent = task.parent;
    if (!parent) return this.end();
    const next = task.node.next;
    if (this.isClosed(parent) || !next || (state !== 'completed' && state !== 'skipped')) return;
    const left: Task[] = [];
    let t: Task | null = parent;
    for (; t && t.node !== next.parent; t = t.parent) left.push(t);
    // a successor in the same list closes nothing
    if (t && left.length === 0) return;
    if (state === 'completed') this.pass(parent, () => task.closingOutputs, true);
    if (!t) return this.escalation(parent, '');
    for (const s of left) {
      if (this.isClosed(s)) continue;
      this.subtree(s, 'skipped');
      this.evaluate(s);
      if (s.parent) this.pass(s.parent, () => s.closingOutputs, true);
    }
  }

  /** The tasks whose outputs it evaluates. */
  tasks(): Task[] {
    return this.closings.filter((c): c is Task => c instanceof Task);
  }
}

/** A plan built by `build` when code workers may take its outputs; none without them (all is evaluated where it closes). */
export function closingsOf(core: EngineContext, proc: Process, build: (plan: ClosingPlan) => void): Closing[] {
  if (!core.codePool) return [];
  const plan = new ClosingPlan(core, proc);
  build(plan);
  return plan.closings;
}

/**
 * Evaluates the outputs of a plan's tasks, each in a window of its own, and leaves them on the
 * tasks; true when all are known. False: one went to a code worker — nothing else changed, the
 * lane is held, and `retry` runs in it once the worker answered (`gone`: the process left meanwhile).
 */
export function evaluateAhead(core: EngineContext, proc: Process, closings: Closing[], retry: () => void, gone?: () => void): boolean {
  const pending = new PendingData();
  for (const c of closings) {
    if (!(c instanceof Task)) {
      const vars = c.vars();
      if (vars) pending.pass(c.into, vars, c.asOutputs);
      continue;
    }
    if (c.closingOutputs) continue;
    const outputs = pending.empty
      ? whenEvaluated(core, proc, c, () => outputsOf(core, proc, c), retry, gone)
      : overPending(core, proc, c, pending, retry, gone);
    if (!outputs) return false;
    c.closingOutputs = outputs.value;
  }
  return true;
}

/** A task's outputs evaluated over the data on its way to it (in its trial and on the worker alike). */
function overPending(core: EngineContext, proc: Process, task: Task, pending: PendingData, retry: () => void, gone?: () => void): { value: Vars } | undefined {
  const scope: ScriptScope = scopeReadingFrom(core.scopeOf(proc, task), {
    has: (name) => pending.isVisible(task, name),
    get: (name) => pending.lookup(task, name),
    data: () => pending.dataOf(task),
  });
  const ctx = { evaluator: () => (source: string) => core.trials.evaluate(task, source, scope, 'script'), checkSize: core.checkSize.bind(core) };
  return whenEvaluated(core, proc, task, () => outputsOf(ctx, proc, task, pending), retry, gone, scope);
}

/** Drops the outputs evaluated ahead that the operation's closings left (it is done). */
export function dropAhead(closings: Closing[]): void {
  for (const c of closings) if (c instanceof Task) c.closingOutputs = undefined;
}
