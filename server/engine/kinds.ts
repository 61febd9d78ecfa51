/**
 * Node-kind behaviour of init and run (spec 2.3), branch selection (2.5 with section 0.3) and the
 * func-package context (1.9.2).
 */
import type { EngineContext } from './context.ts';
import { ActError } from './errors.ts';
import { evaluateCondition, renderValueMap } from './expr/templates.ts';
import { applyInternalAction } from './actions.ts';
import { emit, exec, startHeads, guard, close, proceed, taskJob, whenEvaluated } from './flow.ts';
import type { Act, Vars } from './model/types.ts';
import { isFunc, type FuncContext } from './packages/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import type { Outcome } from './sandbox/types.ts';
import { compileDynamic } from './tree/compile.ts';
import { asAct, asBranch } from './tree/node.ts';
import { mergeData } from './vars.ts';
import { startSubflow } from './subflow.ts';
import { GLOBAL_SCOPE } from './snapshots.ts';

function condition(core: EngineContext, proc: Process, task: Task): boolean {
  const src = (task.node.content as { if?: string }).if;
  if (src === undefined || src.trim() === '') return true;
  return evaluateCondition(src, core.evaluator(proc, task));
}

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

export function initTask(core: EngineContext, proc: Process, task: Task): void {
  const decided = whenEvaluated(core, proc, task, () => decideInit(core, proc, task), () => exec(core, proc, task));
  if (!decided) return;
  if (task.kind === 'workflow') {
    core.setState(proc, task, 'ready');
    emit(core, proc, task);
    core.processStarted(proc);
    return;
  }
  const state = decided.value;
  if (task.kind === 'act' && state === 'ready') task.emitDisabled = true;
  core.setState(proc, task, state);
  emit(core, proc, task);
  if (state === 'interrupted' && !task.terminal) startHeads(core, proc, task);
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
  if (pkg.run_as === 'irq' || pkg.run_as === 'msg') core.registry.validateParams(uses, core.paramsOf(proc, task));
  return pkg.run_as === 'irq' ? 'interrupted' : 'ready';
}

export function runTask(core: EngineContext, proc: Process, task: Task): void {
  if (!whenEvaluated(core, proc, task, () => prepareRun(core, proc, task), () => exec(core, proc, task))) return;
  core.setState(proc, task, 'running');
  if (task.kind === 'act') runAct(core, proc, task);
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
    if (pkg && isFunc(pkg)) core.paramsOf(proc, task);
  }
}

function runAct(core: EngineContext, proc: Process, task: Task): void {
  const uses = asAct(task.node).uses;
  const pkg = core.registry.get(uses);
  if (!pkg) throw new ActError('package.unknown', `act '${task.node.id}' uses unknown package '${uses}'`);
  if (pkg.run_as === 'msg') {
    task.emitDisabled = false;
    return;
  }
  if (!isFunc(pkg)) return;
  const params = core.paramsOf(proc, task);
  core.registry.validateParams(uses, params);
  pkg.run(funcContext(core, proc, task, params));
}

/**
 * The code of a code act came back from its worker: its result applies and the act completes, or
 * its error fails the act, as if the code had run inside the job that started it.
 */
function resumeAfterCode(core: EngineContext, proc: Process, task: Task, outcome: Outcome, apply: (result: unknown) => void): void {
  if (!core.stillRuns(proc, task)) return;
  taskJob(core, proc, task, () => {
    task.autoComplete = true;
    core.markDirty(proc, task);
    if (!outcome.ok) throw outcome.error;
    apply(outcome.value);
    proceed(core, proc, task);
  });
}

function funcContext(core: EngineContext, proc: Process, task: Task, params: unknown): FuncContext {
  return {
    params,
    setVars: (vars) => {
      core.checkSize(`the result of act '${task.node.id}'`, vars);
      mergeData(task, vars);
      core.checkSize(`the data of act '${task.node.id}'`, task.data);
    },
    markOutputs: (keys) => keys.forEach((k) => task.outputKeys.add(k)),
    runCode: (source, mode, apply) => {
      core.fault('code:running');
      if (!core.codePool) return apply(core.evaluate(proc, task, source, mode));
      task.autoComplete = false;
      core.markDirty(proc, task);
      const work = core.codePool.evaluate(source, core.scopeOf(proc, task), mode);
      core.offLane(proc.pid, `code-done ${task.tid}`, work, (outcome) => resumeAfterCode(core, proc, task, outcome, apply));
    },
    expand: (acts, mode) => expand(core, proc, task, acts, mode),
    holdCompletion: () => {
      task.autoComplete = false;
    },
    startSubflow: (mid, options) => startSubflow(core, proc, task, mid, options),
    actOnParent: (action, options) => {
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
    },
  };
}

/** Block expansion (spec 2.6): children are created now and started with the act's heads. */
function expand(core: EngineContext, proc: Process, task: Task, acts: Act[], mode: 'sequence' | 'parallel'): void {
  const normalized = acts.map((a) => core.normalizeAct(a));
  task.expansion = { mode, acts: normalized };
  core.markDirty(proc, task);
  const { heads, nodes } = compileDynamic(normalized, task.node, mode, task.tid);
  proc.registerDynamic(task.tid, nodes);
  for (const node of heads) core.schedule(proc, core.createTask(proc, node, task, task));
}

// ---- branches ----

function selectBranch(core: EngineContext, proc: Process, task: Task): 'ready' | 'pending' | 'skipped' {
  const b = asBranch(task.node);
  // the branches it needs may have finished before it started (skipped by their `if`)
  if (b.needs.length > 0 && !neededDone(proc, task)) return 'pending';
  if (b.if !== undefined && b.if.trim() !== '') return condition(core, proc, task) ? 'ready' : 'skipped';
  if (b.needs.length > 0) return 'ready';
  if (!b.else) return 'skipped';
  const siblings = branchSiblings(proc, task);
  if (siblings.length === 0) return 'ready';
  return elseDecision(siblings) ?? 'pending';
}

/** Whether every sibling branch a branch `needs` is terminal. */
function neededDone(proc: Process, branch: Task): boolean {
  const needs = asBranch(branch.node).needs;
  return branchSiblings(proc, branch).every((t) => !needs.includes(t.node.id) || t.terminal);
}

function branchSiblings(proc: Process, task: Task): Task[] {
  return task.parent ? proc.children(task.parent).filter((t) => t.kind === 'branch' && t !== task) : [];
}

/** An else branch runs when every sibling was skipped and is skipped once one of them ran. */
function elseDecision(siblings: Task[]): 'ready' | 'skipped' | null {
  if (siblings.some((s) => s.state !== 'skipped' && s.state !== 'none' && s.state !== 'pending' && !asBranch(s.node).else)) {
    return 'skipped';
  }
  const others = siblings.filter((s) => !asBranch(s.node).else);
  return others.every((s) => s.state === 'skipped') ? 'ready' : null;
}

/**
 * Re-checks pending branches of a running step (called whenever a child of the step finished),
 * until none changes: a branch skipped here may release a branch that needs it.
 */
export function resumePending(core: EngineContext, proc: Process, step: Task): void {
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
