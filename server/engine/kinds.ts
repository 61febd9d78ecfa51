/**
 * Node-kind behaviour of init and run (spec 2.3) and the func-package context (1.9.2). How the
 * job goes on after work off the engine's thread is its caller's (`TaskDriver`, exec.ts).
 */
import type { EngineContext } from './context.ts';
import { renderValueMap } from './expr/templates.ts';
import { applyInternalAction, planAction } from './actions.ts';
import { closingsOf, dropAhead, evaluateAhead, type Closing } from './closing.ts';
import { emit, startHeads, whenEvaluated } from './task-ops.ts';
import { processStarted } from './finish.ts';
import { condition, selectBranch } from './branches.ts';
import { clearParamsOf, normalizeAct, paramsOf } from './task-data.ts';
import { redactVars } from './redaction.ts';
import type { Act, Vars } from './model/types.ts';
import { isFunc, type EscalateParams, type FuncContext } from './packages/types.ts';
import type { HttpRequest, HttpResponse } from './packages/http-types.ts';
import type { ShellResult, ShellScript } from './packages/shell-types.ts';
import type { StateOp } from './packages/state-types.ts';
import { ActError, familyFailure } from './errors.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import type { Outcome } from './sandbox/types.ts';
import { compileDynamic } from './tree/compile.ts';
import { asAct, asBranch } from './tree/node.ts';
import { mergeData } from './vars.ts';
import { startSubflow } from './subflow.ts';
import { escalate } from './escalation.ts';
import { GLOBAL_SCOPE } from './snapshots.ts';

/** Inputs: the chain predecessor's outputs, act options, then the node's evaluated `inputs`. */
function prepareData(core: EngineContext, proc: Process, task: Task): void {
  core.snapshots.seal(task.data, proc.owner?.id ?? GLOBAL_SCOPE, task.tid === '$');
  if (task.tid === '$') return;
  const prev = task.prev;
  if (prev && prev !== task.parent && !task.isHook) Object.assign(task.data, prev.outputs ?? {});
  if (task.kind === 'act') Object.assign(task.data, task.options);
  const inputs = (task.node.content as { inputs?: Vars }).inputs ?? {};
  task.inputs = Object.keys(inputs).length > 0 ? renderValueMap(inputs, core.evaluator(proc, task)) : {};
  Object.assign(task.data, task.inputs);
}

/** What init decided for a task, once its expressions were evaluated. */
type InitDecision = 'ready' | 'pending' | 'skipped' | 'interrupted';

/**
 * How the job that runs a task goes on after work off the engine's thread (exec.ts builds it):
 * `again` runs the task's job again once a worker evaluated an expression of its window;
 * `resume` runs `work` as the task's job once a code act's code came back, then proceeds.
 */
export interface TaskDriver {
  again(): void;
  resume(work: () => void): void;
}

export function initTask(core: EngineContext, proc: Process, task: Task, driver: TaskDriver): void {
  const decided = whenEvaluated(core, proc, task, () => decideInit(core, proc, task), () => driver.again());
  if (!decided) return;
  // a task skipped at init closes with a message, and a step's jump leaves its enclosing tasks
  if (decided.value === 'skipped' && !evaluateAhead(core, proc, skippedAhead(core, proc, task), () => driver.again())) return;
  if (task.kind === 'workflow') {
    core.setState(proc, task, 'ready');
    emit(core, proc, task);
    processStarted(core, proc);
    return;
  }
  const state = decided.value;
  if (task.kind === 'act' && state === 'ready') task.emitDisabled = true;
  core.setState(proc, task, state);
  emit(core, proc, task);
  if (state === 'interrupted' && !task.terminal) startHeads(core, proc, task);
}

/** What a task skipped at init closes: its own message, and what it closes as it moves on (flow.ts propagate). */
function skippedAhead(core: EngineContext, proc: Process, task: Task): Closing[] {
  return closingsOf(core, proc, (plan) => {
    plan.close(task, 'skipped');
    plan.finishing(task, 'skipped');
  });
}

/** Init's expression work: the task's data and inputs, its `if`, an irq or msg act's params. */
function decideInit(core: EngineContext, proc: Process, task: Task): InitDecision {
  prepareData(core, proc, task);
  if (task.node.timeouts.length > 0) core.watchTimeouts(task);
  switch (task.kind) {
    case 'workflow':
      return 'ready';
    case 'step':
      return condition(core, proc, task) ? 'ready' : 'skipped';
    case 'branch':
      return selectBranch(core, proc, task);
    case 'act':
      return decideAct(core, proc, task);
  }
}

function decideAct(core: EngineContext, proc: Process, task: Task): InitDecision {
  if (!condition(core, proc, task)) return 'skipped';
  const uses = asAct(task.node).uses;
  if (!uses) throw new ActError('package.unknown', `act '${task.node.id}' has no 'uses'`);
  const pkg = core.registry.get(uses);
  if (!pkg || !core.registry.isActPackage(uses)) {
    throw new ActError('package.unknown', `act '${task.node.id}' uses unknown package '${uses}'`);
  }
  if (pkg.run_as !== 'func') core.registry.validateParams(uses, paramsOf(core, proc, task));
  // an external package's act waits for a remote worker as an interrupt waits for its answer
  return pkg.run_as === 'irq' || pkg.run_as === 'worker' ? 'interrupted' : 'ready';
}

export function runTask(core: EngineContext, proc: Process, task: Task, driver: TaskDriver): void {
  if (!whenEvaluated(core, proc, task, () => prepareRun(core, proc, task), () => driver.again())) return;
  const ahead = parentActionAhead(core, proc, task);
  if (!evaluateAhead(core, proc, ahead, () => driver.again())) return;
  core.setState(proc, task, 'running');
  if (task.kind === 'act') {
    try {
      runAct(core, proc, task, driver);
    } finally {
      dropAhead(ahead);
    }
  }
  if (task.terminal && task.propagated) return;
  emit(core, proc, task);
  if (task.state === 'running') startHeads(core, proc, task);
}

/** Run's expression work, before the task runs: a branch's `run` script, a func act's params. */
function prepareRun(core: EngineContext, proc: Process, task: Task): void {
  if (task.kind === 'branch') {
    const run = asBranch(task.node).run;
    if (run && run.trim()) core.evaluate(proc, task, run, 'script');
  } else if (task.kind === 'act') {
    const pkg = core.registry.get(asAct(task.node).uses);
    if (pkg && isFunc(pkg)) paramsOf(core, proc, task);
  }
}

/**
 * What the action an act applies to its parent when it runs (acts.core.action) closes, to be
 * evaluated before the act changes anything: none for other acts, or when the action would be
 * refused (the act then fails as it runs).
 */
function parentActionAhead(core: EngineContext, proc: Process, task: Task): Closing[] {
  if (!core.codePool || task.kind !== 'act' || !task.parent) return [];
  const uses = asAct(task.node).uses;
  const pkg = core.registry.get(uses);
  if (!pkg || !isFunc(pkg) || !pkg.parentAction) return [];
  try {
    const params = paramsOf(core, proc, task);
    core.registry.validateParams(uses, params);
    const { action, options } = pkg.parentAction(params);
    return planAction(core, proc, task.parent, action, options, task);
  } catch {
    return [];
  }
}

/** Runs an act's package: its work starts (a code act's code goes to a worker), it does not complete here. */
export function runAct(core: EngineContext, proc: Process, task: Task, driver: TaskDriver): void {
  const uses = asAct(task.node).uses;
  const pkg = core.registry.get(uses);
  if (!pkg) throw new ActError('package.unknown', `act '${task.node.id}' uses unknown package '${uses}'`);
  if (pkg.run_as === 'msg') {
    task.emitDisabled = false;
    return;
  }
  if (!isFunc(pkg)) return;
  const params = paramsOf(core, proc, task);
  // checked as shown: a refusal's message never holds a secret's value
  core.registry.validateParams(uses, params);
  pkg.run(new ActContext(core, proc, task, pkg.secrets ? clearParamsOf(core, proc, task) : params, driver));
}

/**
 * The code of a code act came back from its worker (or an http act's answer came): its result
 * applies and the act completes, or its error fails the act, as if the work had run inside the
 * job that started it.
 */
function resumeAfter<T>(core: EngineContext, proc: Process, task: Task, outcome: Outcome<T>, apply: (result: T) => void, driver: TaskDriver): void {
  if (!core.stillRuns(proc, task)) return;
  driver.resume(() => {
    task.autoComplete = true;
    core.markDirty(proc, task);
    if (!outcome.ok) throw outcome.error;
    apply(outcome.value);
  });
}

/**
 * What a func package may do to the act it runs (FuncContext). A class, not an object of
 * closures: one is made for every act run, and its methods are shared.
 */
class ActContext implements FuncContext {
  constructor(
    private readonly core: EngineContext,
    private readonly proc: Process,
    private readonly task: Task,
    readonly params: unknown,
    private readonly driver: TaskDriver,
  ) {}

  setVars(written: Vars): void {
    const { core, task } = this;
    const vars = redactVars(task, written);
    core.checkSize(`the result of act '${task.node.id}'`, vars);
    mergeData(task, vars);
    core.checkSize(`the data of act '${task.node.id}'`, task.data);
  }

  markOutputs(keys: string[]): void {
    for (const key of keys) this.task.outputKeys.add(key);
  }

  runCode(source: string, mode: 'script' | 'function', apply: (result: unknown) => void): void {
    const { core, proc, task, driver } = this;
    core.fault('code:running');
    if (!core.codePool) return apply(core.evaluate(proc, task, source, mode));
    task.autoComplete = false;
    core.markDirty(proc, task);
    const work = core.codePool.evaluate(source, core.scopeOf(proc, task), mode);
    core.offLane(proc.pid, `code-done ${task.tid}`, work, (outcome) => resumeAfter(core, proc, task, outcome, apply, driver));
  }

  callHttp(request: HttpRequest, apply: (response: HttpResponse) => void): void {
    const caller = { pid: this.proc.pid, tid: this.task.tid };
    this.aside('http', () => this.core.http.send({ ...request, caller }), apply);
  }

  runShell(script: ShellScript, apply: (result: ShellResult) => void): void {
    const { core, proc, task } = this;
    // the act closed while its script runs (its step cancelled, its process aborted): the script is killed
    const stopped = new AbortController();
    const forget = core.onClose(task, () => stopped.abort());
    this.aside('shell', () => core.shell.run({ ...script, pid: proc.pid, workdir: proc.workdir }, stopped.signal).finally(forget), apply);
  }

  keepState(op: StateOp, apply: (value: unknown) => void): void {
    const { proc } = this;
    const { state } = this.core;
    this.aside('state', () => (op.op === 'GET' ? state.get(proc.pid, op.key) : state.set(proc.pid, op.key, op.value)), apply);
  }

  /**
   * I/O of the act's package beside the lanes: the act is held open; its outcome comes back as a
   * job of the process, where an error of the package's family (`<family>.*`) fails the act
   * with that code as its ecode.
   */
  private aside<T>(family: string, work: () => Promise<T>, apply: (result: T) => void): void {
    const { core, proc, task, driver } = this;
    task.autoComplete = false;
    core.markDirty(proc, task);
    const done = work().catch((err: unknown) => {
      throw familyFailure(err, `${family}.`);
    });
    core.aside(proc.pid, `${family}-done ${task.tid}`, done, (outcome) => resumeAfter(core, proc, task, outcome, apply, driver));
  }

  expand(acts: Act[], mode: 'sequence' | 'parallel'): void {
    expand(this.core, this.proc, this.task, acts, mode);
  }

  holdCompletion(): void {
    this.task.autoComplete = false;
  }

  startSubflow(mid: string, options: Vars): void {
    startSubflow(this.core, this.proc, this.task, mid, options);
  }

  escalateOwner(params: EscalateParams): void {
    const escalation = escalate(this.core, this.proc, this.task, params);
    this.setVars({ escalation });
    this.markOutputs(['escalation']);
  }

  actOnParent(action: string, options: Vars): void {
    const { core, proc, task } = this;
    const parent = task.parent;
    if (!parent) throw new ActError('action.refused', `act '${task.node.id}' has no parent to act on`);
    // The action act has done its work once the action applies: it completes first, so the
    // parent's new fate never waits on it; a refused action leaves it running (and it fails).
    core.setState(proc, task, 'completed');
    try {
      applyInternalAction(core, proc, parent, action, options, task);
    } catch (err) {
      core.setState(proc, task, 'running');
      throw err;
    }
  }
}

/** Block expansion (spec 2.6): children are created now and started with the act's heads. */
function expand(core: EngineContext, proc: Process, task: Task, acts: Act[], mode: 'sequence' | 'parallel'): void {
  const normalized = acts.map((a) => normalizeAct(a, core.newId));
  task.expansion = { mode, acts: normalized };
  core.markDirty(proc, task);
  const { heads, nodes } = compileDynamic(normalized, task.node, mode, task.tid);
  proc.registerDynamic(task.tid, nodes);
  for (const node of heads) core.schedule(proc, core.createTask(proc, node, task, task));
}
