/**
 * Client actions (spec 3.1–3.2 with section 0): every precondition is checked before anything
 * changes, so a refused action changes nothing and says why. The same effects serve
 * `acts.core.action` (applied to the parent task) and subflow returns.
 */
import type { EngineContext } from './context.ts';
import { ActError } from './errors.ts';
import { failNow, finish, incidentFlow } from './flow.ts';
import { close, closeSubtree, spawn } from './task-ops.ts';
import { normalizeAct } from './task-data.ts';
import { ClosingPlan, dropAhead, evaluateAhead, type Closing } from './closing.ts';
import { abortProcess } from './finish.ts';
import type { Act, Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { compileDynamic } from './tree/compile.ts';
import { asAct } from './tree/node.ts';
import { markOutputs, mergeData } from './vars.ts';
import { requireAnswers } from './required-answers.ts';
import { chooseOutcome } from './outcomes.ts';
import { COMMENT_KEY, OUTCOME_KEY } from '../../vocab/outcomes.ts';
import { isControlAction } from '../../vocab/control.ts';
import { MIGRATE_ACTION } from '../../vocab/migration.ts';
import { migrateProcess, planOf } from './migrate.ts';
import { applyControl } from './control.ts';
import { castVote, refuseBypass } from './votes.ts';


export const ACTION_NAMES = ['next', 'submit', 'back', 'cancel', 'abort', 'skip', 'error', 'push', 'remove', 'set_process_vars', 'outcome', 'vote'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

const ALIASES: Record<string, ActionName> = { complete: 'next', 'set-vars': 'set_process_vars', set_vars: 'set_process_vars' };

export function normalizeAction(event: string): ActionName {
  const name = ALIASES[event] ?? event;
  if (!(ACTION_NAMES as readonly string[]).includes(name)) {
    throw new ActError('action.unknown', `unknown action '${event}': use one of complete, ${ACTION_NAMES.filter((n) => n !== 'next').join(', ')}`);
  }
  return name as ActionName;
}

function refuse(message: string): never {
  throw new ActError('action.refused', message);
}

function label(task: Task): string {
  return `${task.kind} '${task.node.id}' (${task.tid})`;
}

function requireOpen(task: Task, action: string): void {
  if (task.terminal) refuse(`cannot ${action} ${label(task)}: it is already ${task.state}`);
}

/** The declared-outputs contract (section 0.9): next/submit need every declared key. */
function applyOutputsContract(task: Task, options: Vars): Vars {
  const declared = Object.keys(asAct(task.node).outputs ?? {});
  if (declared.length === 0) return options;
  const missing = declared.filter((k) => !(k in options));
  if (missing.length > 0) {
    throw new ActError(
      'action.invalid_options',
      `act '${task.node.id}' declares outputs ${declared.map((k) => `'${k}'`).join(', ')}; options are missing ${missing.map((k) => `'${k}'`).join(', ')}`,
    );
  }
  const reduced: Vars = {};
  for (const k of declared) reduced[k] = options[k];
  return reduced;
}

/** How a client action goes on when the outputs of the act it closes are evaluated on a code worker. */
export interface ActionContinuation {
  /** Applies the action again (in the process's held lane) once the worker answered. */
  retry: () => void;
  /** The process left this engine's hands meanwhile: the action was not applied. */
  gone: () => void;
}

/** Thrown where an action stops because the outputs of the act it closes went to a code worker. */
class ActionDeferred extends Error {}

/** Thrown where a planning run of an action (`planAction`) stops: its closings are known. */
class Planned extends Error {}

/**
 * Applies a client action to task `tid` of a process (spec 3.1 checks, in order). `deferred`: the
 * outputs of the act it closes are being evaluated on a code worker; only the action's options
 * were merged, and `continuation.retry` applies it again (see `mergeClosing`).
 */
export function applyClientAction(core: EngineContext, proc: Process, tid: string, event: string, given: Vars, continuation?: ActionContinuation): 'applied' | 'deferred' {
  const task = proc.tasks.get(tid);
  if (!task) throw new ActError('task.not_found', `cannot find task '${tid}' in process '${proc.pid}'`);
  if (isControlAction(event)) {
    // pause, resume, breakpoints, incidents: the whole process's (control.ts), on its root like abort
    if (task !== proc.root) refuse(`${event} controls the whole process: send it to its root task '$', not ${label(task)}`);
    applyControl(core, proc, event, given, incidentFlow(core, proc));
    return 'applied';
  }
  if (event === MIGRATE_ACTION) {
    if (task !== proc.root) refuse(`migrate moves the whole process: send it to its root task '$', not ${label(task)}`);
    migrate(core, proc, given);
    return 'applied';
  }
  let action = normalizeAction(event);
  let options = given;
  if (action === 'push') {
    if (task.kind !== 'step') refuse(`push needs a step task; ${label(task)} is not a step`);
  } else if (task.kind !== 'act' && !(task === proc.root && (action === 'abort' || action === 'set_process_vars'))) {
    // the root also takes `abort` (the whole process) and `set_process_vars`
    refuse(`${event} needs an act task; ${label(task)} is a ${task.kind}`);
  }
  if (proc.finished && !task.isHook) refuse(`process '${proc.pid}' is already ${proc.state}`);
  let outcome: string | undefined;
  let comment: string | undefined;
  let opts: Vars;
  if (action === 'vote') {
    // one person's vote on an act decided by votes (votes.ts): it closes the act only when decisive
    const decided = castVote(core, proc, task, options);
    if (!decided) return 'applied';
    ({ action, options: opts, outcome } = decided);
  } else {
    if (action === 'next' || action === 'submit' || action === 'outcome') refuseBypass(task, action);
    // a declared outcome stands for complete or error (outcomes.ts)
    if (action === 'outcome') ({ action, options, outcome, comment } = chooseOutcome(task, options));
    if (action === 'next' || action === 'submit') requireAnswers(task, options);
    opts = action === 'next' || action === 'submit' ? applyOutputsContract(task, options) : options;
    if (outcome !== undefined) opts = { ...opts, [OUTCOME_KEY]: outcome, ...(comment === undefined ? {} : { [COMMENT_KEY]: comment }) };
  }
  const ctx: ActionContext = { client: true, continuation, evaluated: [], outcome };
  let deferred = false;
  try {
    applyAction(core, proc, task, action, opts, ctx);
  } catch (err) {
    deferred = err instanceof ActionDeferred;
    if (deferred) return 'deferred';
    throw err;
  } finally {
    // outputs evaluated ahead stay while the action waits for a worker (its retry takes them)
    if (!deferred) dropAhead(ctx.evaluated ?? []);
  }
  if (action !== 'push' && action !== 'set_process_vars') core.settleDeliveries(proc.pid, task.tid);
  // a subflow act a client closed (complete, skip, remove …) no longer waits for its child
  if (task.terminal && task.childPid) core.abortChild(task);
  return 'applied';
}

/**
 * Migrates the process to the version its plan names (migrate.ts). An act the plan cancels is
 * skipped alone (not its siblings, unlike the `skip` action), so its chain goes on at the
 * successor its retired node names; a cancelled subflow act aborts its child.
 */
function migrate(core: EngineContext, proc: Process, options: Vars): void {
  const plan = planOf(options);
  const target = core.modelVersion(proc.mid, plan.ver);
  if (!target) throw new ActError('model.not_found', `version ${plan.ver} of model '${proc.mid}' is not deployed`);
  migrateProcess(core, proc, target, plan, (task) => {
    closeSubtree(core, proc, task, 'skipped');
    finish(core, proc, task, 'skipped');
    // a subflow act no longer waits for its child: nothing would hear the child's end
    core.abortChild(task);
    core.settleDeliveries(proc.pid, task.tid);
  });
}

/** `acts.core.action`: applies an action to the parent task of the act that runs it. */
export function applyInternalAction(core: EngineContext, proc: Process, target: Task, event: string, options: Vars, initiator?: Task): void {
  applyAction(core, proc, target, normalizeAction(event), options, { client: false, initiator });
}

/**
 * The closings an internal action (or a subflow's return) will make, for its caller to evaluate
 * ahead (closing.ts) before anything changes: the action runs its checks up to the point where it
 * would merge its options (`mergeClosing`, `closeAlong`) — every case that changes anything gets
 * there first — and stops. None without code workers, for a refused action, and for `push` and
 * `set_process_vars`, which close nothing.
 */
export function planAction(core: EngineContext, proc: Process, target: Task, event: string, options: Vars, initiator?: Task): Closing[] {
  if (!core.codePool) return [];
  const planning = new ClosingPlan(core, proc);
  if (initiator) planning.settle(initiator);
  try {
    const action = normalizeAction(event);
    if (action === 'push' || action === 'set_process_vars') return [];
    applyAction(core, proc, target, action, options, { client: false, initiator, planning });
  } catch (err) {
    if (err instanceof Planned) return planning.closings;
    if (ActError.is(err)) return [];
    throw err;
  }
  return [];
}

interface ActionContext {
  client: boolean;
  /** The act applying an internal action; it finishes on its own and is not closed. */
  initiator?: Task;
  /** A client action that may wait for a code worker (see `mergeClosing`). */
  continuation?: ActionContinuation;
  /** The tasks whose closing outputs it evaluated ahead (dropped once it was applied). */
  evaluated?: Task[];
  /** A planning run (`planAction`): it stops where it would change something, with its closings here. */
  planning?: ClosingPlan;
  /** The declared outcome a client chose (`outcome`); an error it raises carries it. */
  outcome?: string;
}

/**
 * Merges an action's options into the act it closes (and marks them as its outputs), then
 * evaluates the outputs of the act and, with code workers, of what the action closes along with
 * it (`closeAlong`). A planning run only notes the merge: the outputs are evaluated over it.
 */
function mergeClosing(core: EngineContext, proc: Process, task: Task, options: Vars, ctx: ActionContext, along: (plan: ClosingPlan) => void, asOutputs = false): void {
  if (ctx.planning) ctx.planning.pass(task, () => options, asOutputs);
  else {
    mergeData(task, options);
    if (asOutputs) markOutputs(task, options);
  }
  closeAlong(core, proc, ctx, task, along);
}

/**
 * For a client action, evaluates in windows (closing.ts) the outputs that the messages of the
 * tasks it closes will carry — its act (`first`) and, with code workers, what it closes along with
 * it (`along`: the act's open subtree, the siblings a skip skips, what an abort ends, an error's
 * escalation, what a back or a cancel leaves) — before anything else changes. An expression that
 * moves to a worker stops the action here with at most its options merged — merging the same
 * options again changes nothing — and the continuation applies the whole action again once the
 * worker answered; the outputs evaluated so far stay on their tasks (`Task.closingOutputs`), and
 * each closing message takes its task's. A planning run stops here with the plan.
 */
function closeAlong(core: EngineContext, proc: Process, ctx: ActionContext, first: Task | null, along: (plan: ClosingPlan) => void): void {
  const continuation = ctx.continuation;
  if (!continuation && !ctx.planning) return;
  const plan = ctx.planning ?? new ClosingPlan(core, proc);
  if (first) plan.evaluate(first);
  if (core.codePool) along(plan);
  if (ctx.planning) throw new Planned();
  if (!continuation) return;
  ctx.evaluated = plan.tasks();
  if (!evaluateAhead(core, proc, plan.closings, continuation.retry, continuation.gone)) throw new ActionDeferred();
}

export function applyAction(core: EngineContext, proc: Process, task: Task, action: ActionName, options: Vars, ctx: ActionContext): void {
  switch (action) {
    case 'next':
      requireOpen(task, 'complete');
      mergeClosing(core, proc, task, options, ctx, (plan) => plan.subtree(task, 'skipped', ctx.initiator), true);
      closeSubtree(core, proc, task, 'skipped', ctx.initiator);
      finish(core, proc, task, 'completed');
      return;
    case 'submit':
    case 'remove':
      requireOpen(task, action);
      mergeClosing(core, proc, task, options, ctx, (plan) => plan.subtree(task, 'skipped', ctx.initiator), action === 'submit');
      closeSubtree(core, proc, task, 'skipped', ctx.initiator);
      finish(core, proc, task, action === 'submit' ? 'submitted' : 'removed');
      return;
    case 'skip':
      requireOpen(task, 'skip');
      mergeClosing(core, proc, task, options, ctx, (plan) => {
        if (!task.isHook) plan.siblings(task, ctx.initiator);
        plan.subtree(task, 'skipped', ctx.initiator);
      });
      // a hook runs beside its owner's children: skipping it leaves them alone
      if (!task.isHook) skipSiblings(core, proc, task, ctx.initiator);
      closeSubtree(core, proc, task, 'skipped', ctx.initiator);
      finish(core, proc, task, 'skipped');
      return;
    case 'abort':
      requireOpen(task, 'abort');
      mergeClosing(core, proc, task, options, ctx, (plan) => plan.abort(task, ctx.initiator));
      abortProcess(core, proc, task, ctx.initiator);
      return;
    case 'error':
      return errorAction(core, proc, task, options, ctx);
    case 'back':
      return backAction(core, proc, task, options, ctx);
    case 'cancel':
      return cancelAction(core, proc, task, ctx);
    case 'push':
      return pushAction(core, proc, task, options);
    case 'outcome':
    case 'vote':
      // only a client chooses an outcome or votes (applyClientAction turns them into complete or error)
      return refuse(`${action} is a client's answer to an interrupt act; use complete or error here`);
    case 'set_process_vars':
      requireOpen(task, 'set variables of');
      if (proc.root) {
        Object.assign(proc.root.data, options);
        proc.root.touch();
      }
      return;
  }
}

function skipSiblings(core: EngineContext, proc: Process, task: Task, except?: Task): void {
  if (!task.parent) return;
  for (const sibling of proc.children(task.parent)) {
    if (sibling === task || sibling === except || sibling.isHook || sibling.terminal) continue;
    closeSubtree(core, proc, sibling, 'skipped', except);
    close(core, proc, sibling, 'skipped');
  }
}

function errorAction(core: EngineContext, proc: Process, task: Task, options: Vars, ctx: ActionContext): void {
  const ecode = ctx.client || options.ecode !== undefined ? options.ecode : '';
  if (typeof ecode !== 'string' || (ctx.client && ecode === '')) {
    throw new ActError('action.invalid_options', `error needs option 'ecode' (a non-empty string) to say what went wrong`);
  }
  requireOpen(task, 'error');
  if (!task.parent) refuse(`cannot error ${label(task)}: it has no parent`);
  const message = typeof options.message === 'string' ? options.message : '';
  mergeClosing(core, proc, task, options, ctx, (plan) => {
    plan.subtree(task, 'skipped', ctx.initiator);
    plan.escalation(task, ecode);
  });
  closeSubtree(core, proc, task, 'skipped', ctx.initiator);
  // what the error closes was evaluated ahead: it may not wait for a worker inside the action
  failNow(core, proc, task, ctx.outcome === undefined ? { ecode, message } : { ecode, message, outcome: ctx.outcome });
}

/** The enclosing step of an act (or the owning act for an act inside a block). */
function enclosing(task: Task): Task | null {
  for (let t = task.parent; t; t = t.parent) if (t.kind === 'step' || t.kind === 'act') return t;
  return null;
}

/** Hooks run beside their owner and never decide its flow (spec 2.8). */
function refuseHook(task: Task, action: string): void {
  if (task.isHook) refuse(`cannot ${action} ${label(task)}: it is a lifecycle hook, which never changes its owner's flow (complete, skip or error it instead)`);
}

function backAction(core: EngineContext, proc: Process, task: Task, options: Vars, ctx: ActionContext): void {
  requireOpen(task, 'send back');
  refuseHook(task, 'send back');
  const to = options.to;
  if (typeof to !== 'string' || to === '') throw new ActError('action.invalid_options', `back needs option 'to': the id of an earlier step`);
  const path: Task[] = [];
  let target: Task | null = task.prev;
  while (target && !(target.kind === 'step' && target.node.id === to)) {
    path.push(target);
    target = target.prev;
  }
  if (!target) refuse(`cannot send ${label(task)} back to '${to}': no step '${to}' ran before it on this path`);
  const parent = target.parent;
  if (!parent || parent.terminal) refuse(`cannot send back to '${to}': its enclosing ${parent?.kind ?? 'task'} already finished`);
  const owner = enclosing(task);
  mergeClosing(core, proc, task, options, ctx, (plan) => {
    plan.siblings(task, ctx.initiator);
    plan.subtree(task, 'skipped', ctx.initiator);
    if (owner && owner !== target.parent) {
      plan.subtree(owner, 'skipped', ctx.initiator);
      plan.close(owner, 'backed');
    }
    planPath(plan, path, ctx.initiator);
    if (isDescendant(task, target)) {
      plan.subtree(target, 'skipped', ctx.initiator);
      plan.close(target, 'backed');
    }
  });
  skipSiblings(core, proc, task, ctx.initiator);
  closeSubtree(core, proc, task, 'skipped', ctx.initiator);
  close(core, proc, task, 'backed');
  if (owner && owner !== target.parent) {
    closeSubtree(core, proc, owner, 'skipped', ctx.initiator);
    close(core, proc, owner, 'backed');
  }
  closePath(core, proc, path, ctx.initiator);
  // a target that encloses the act (a loop head, the step holding its branch) starts afresh too
  if (isDescendant(task, target)) {
    closeSubtree(core, proc, target, 'skipped', ctx.initiator);
    close(core, proc, target, 'backed');
  }
  spawn(core, proc, target.node, target.prev ?? parent, parent);
}

/**
 * Tasks left behind on a path: running → completed, waiting → skipped; whatever still runs
 * under them (a parallel branch, an escalation) can no longer matter and is skipped.
 */
function closePath(core: EngineContext, proc: Process, path: Task[], except?: Task): void {
  for (const t of path) {
    if (t.terminal) continue;
    closeSubtree(core, proc, t, 'skipped', except);
    close(core, proc, t, t.state === 'running' ? 'completed' : 'skipped');
  }
}

/** What `closePath` closes. */
function planPath(plan: ClosingPlan, path: Task[], except?: Task): void {
  for (const t of path) {
    if (plan.isClosed(t)) continue;
    plan.subtree(t, 'skipped', except);
    plan.close(t, t.state === 'running' ? 'completed' : 'skipped');
  }
}

function isDescendant(task: Task, ancestor: Task): boolean {
  for (let t = task.parent; t; t = t.parent) if (t === ancestor) return true;
  return false;
}

function cancelAction(core: EngineContext, proc: Process, task: Task, ctx: ActionContext): void {
  if (ctx.client && task.state !== 'completed') refuse(`cannot cancel ${label(task)}: only a completed act can be cancelled (it is ${task.state})`);
  refuseHook(task, 'cancel');
  let step: Task | null = task.parent;
  while (step && step.kind !== 'step') step = step.parent;
  if (!step) refuse(`cannot cancel ${label(task)}: it is not inside a step`);
  if (step.state !== 'completed') refuse(`cannot cancel ${label(task)}: its step '${step.node.id}' is still ${step.state}`);
  const parent = step.parent;
  if (!parent || parent.terminal) refuse(`cannot cancel ${label(task)}: the process moved past its step`);
  const path: Task[] = [];
  const nexts: Task[] = [];
  const queue = proc.followers(step).filter((t) => !isDescendant(t, step));
  while (queue.length > 0) {
    const t = queue.shift()!;
    if (t.kind === 'step' && proc.workChildren(t).some((c) => c.kind === 'act')) nexts.push(t);
    else {
      path.push(t);
      queue.push(...proc.followers(t));
    }
  }
  if (nexts.length === 0) refuse(`cannot cancel ${label(task)}: no later step with acts follows step '${step.node.id}'`);
  const done = nexts.find((t) => t.terminal);
  if (done) refuse(`cannot cancel ${label(task)}: the following step '${done.node.id}' already ${done.state}`);
  closeAlong(core, proc, ctx, null, (plan) => {
    planPath(plan, path);
    for (const next of nexts) {
      plan.subtree(next, 'cancelled');
      plan.close(next, 'completed');
    }
  });
  closePath(core, proc, path);
  for (const next of nexts) {
    closeSubtree(core, proc, next, 'cancelled');
    close(core, proc, next, 'completed');
  }
  spawn(core, proc, step.node, step.prev ?? parent, parent);
}

function pushAction(core: EngineContext, proc: Process, step: Task, options: Vars): void {
  requireOpen(step, 'push into');
  if (step.state !== 'running') refuse(`cannot push into ${label(step)}: it has not started running (${step.state})`);
  const uses = options.uses;
  if (typeof uses !== 'string' || uses === '') throw new ActError('action.invalid_options', `push needs option 'uses': the package of the new act`);
  if (!core.registry.isActPackage(uses)) throw new ActError('package.unknown', `cannot push an act using unknown package '${uses}'`);
  const fields = ['id', 'key', 'name', 'tag', 'params', 'outputs', 'inputs', 'desc'];
  const raw: Record<string, unknown> = { uses };
  for (const f of fields) if (options[f] !== undefined) raw[f] = options[f];
  const act: Act = normalizeAct(raw, core.newId);
  if (proc.dynamicNode(step.tid, act.id)) refuse(`cannot push act '${act.id}' into ${label(step)}: an act with this id was pushed there already`);
  const { heads, nodes } = compileDynamic([act], step.node, 'parallel', step.tid);
  step.pushed.push(act);
  core.markDirty(proc, step);
  proc.registerDynamic(step.tid, nodes);
  spawn(core, proc, heads[0], step, step);
}

