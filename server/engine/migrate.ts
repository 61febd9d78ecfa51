/**
 * Migrating a running process to another version of its model (issue 16; vocab/migration.ts has
 * the plan and the problems). One operation on one process, applied in its lane like an action:
 * it either moves every task of the process to the target version's nodes or changes nothing.
 *
 * Where each task goes (`placements`), in creation order so a task's parent is placed first:
 * - the root goes to the target's root; a run-time node (a block expansion, a pushed act) is built
 *   again from its builder's stored definitions under the builder's new node;
 * - a compiled node goes to the plan's target id (the same id unless mapped) when that node has
 *   the task's kind and sits under the node its parent task moves to (where it did before);
 * - a finished task that fits nowhere keeps a retired node (tree/retired.ts) as history — but an
 *   act held by an open incident is live (a retry runs its node again): it needs a target;
 * - a live task that fits nowhere is a problem — unless it is an act at a node the target does not
 *   have and the plan cancels it: it is skipped alone after the switch and its
 *   flow goes on at the next node of its old chain that the target has.
 * A started act must keep its package (an answered interrupt must not become an HTTP call), and a
 * running subflow act its place. Timeout rules already fired stay fired where the target has a
 * rule of the same duration; the others count from the task's start as before (elapsed time kept).
 * Pause, breakpoints and incidents follow their nodes. Messages already sent are records of what
 * happened and are not rewritten; an open interrupt keeps the request it made (its evaluated params,
 * so its assignees and inbox rows), and its next messages carry its new node.
 */
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import type { EngineContext, MigrationTarget } from './context.ts';
import { asAct, type Node } from './tree/node.ts';
import { retiredInfo, retiredNode, type RetiredInfo } from './tree/retired.ts';
import { dynamicNode } from './dynamic-nodes.ts';
import { validateSchema } from './schemas.ts';
import { ActError } from './errors.ts';
import { MIGRATION_PROBLEMS, REMOVED_POLICIES, type MigrationPlan, type MigrationProblem, type MigrationProblemCode, type MigrationReport } from '../../vocab/migration.ts';

type Placement =
  | { to: 'node'; node: Node }
  /** Built again from its builder's definitions once the builder moved. */
  | { to: 'dynamic' }
  | { to: 'retired'; info: RetiredInfo; next: Node | null; cancel: boolean };

/** The node a placed task will have; undefined for a run-time node (known only after the switch). */
function placedNode(place: Placement | undefined): Node | undefined {
  return place?.to === 'node' ? place.node : undefined;
}

const STARTED_WAITING = new Set(['running', 'interrupted']);

function targetId(plan: MigrationPlan, nid: string): string {
  return plan.map?.[nid] ?? nid;
}

class Placer {
  readonly placements = new Map<Task, Placement>();
  readonly problems: MigrationProblem[] = [];
  /** Failed acts an open incident holds: a retry runs their node again. */
  private readonly held: Set<string>;

  constructor(
    private readonly proc: Process,
    private readonly target: MigrationTarget,
    private readonly plan: MigrationPlan,
  ) {
    this.held = new Set(proc.control?.incidents.map((i) => i.tid) ?? []);
  }

  /** Finished for good: history only (not an act an incident holds). */
  private settled(task: Task): boolean {
    return task.terminal && !this.held.has(task.tid);
  }

  problem(code: MigrationProblemCode, task: Task | null, detail: string): void {
    this.problems.push({ code, tid: task?.tid ?? null, nid: task?.node.id ?? null, message: `${MIGRATION_PROBLEMS[code]}: ${detail}` });
  }

  placeAll(): void {
    const tasks = [...this.proc.tasks.values()].sort((a, b) => a.seq - b.seq);
    for (const task of tasks) this.place(task);
  }

  private place(task: Task): void {
    if (task === this.proc.root) return void this.placements.set(task, { to: 'node', node: this.target.tree.root });
    const parentPlace = task.parent ? this.placements.get(task.parent) : undefined;
    if (task.node.origin !== null) return this.placeDynamic(task, task.node.origin);
    if (task.node.retired) return this.retire(task, task.node.retired);
    const node = this.target.tree.nodes.get(targetId(this.plan, task.node.id));
    const fits = node !== undefined && node.kind === task.kind && this.underItsParent(task, node, parentPlace);
    if (fits && (task.terminal || !this.packageChanged(task, node))) return void this.placements.set(task, { to: 'node', node });
    if (this.settled(task)) return this.retire(task, retiredInfo(task.node));
    const what = `${task.kind} '${task.node.id}' (task ${task.tid})`;
    if (!node && task.terminal) return this.problem('no_target', task, `${what} failed and an open incident holds it; map it to a node of version ${this.plan.ver}, or retry or fail the incident first`);
    if (!node) return this.removed(task, what);
    if (node.kind !== task.kind) return this.problem('kind_changed', task, `${what} would become the ${node.kind} '${node.id}'; map it to a ${task.kind}`);
    if (!fits) {
      const where = `${what} is inside '${task.parent?.node.id}', but '${node.id}' of version ${this.plan.ver} is not inside the node that one maps to`;
      return task.childPid ? this.problem('subflow_moved', task, where) : this.problem('parent_moved', task, where);
    }
    this.problem('act_changed', task, `${what} runs ${asAct(task.node).uses}; '${node.id}' of version ${this.plan.ver} runs ${asAct(node).uses}`);
  }

  /** A run-time node moves with its builder; one whose builder retires can only be history. */
  private placeDynamic(task: Task, origin: string): void {
    const builder = this.proc.tasks.get(origin);
    const builderPlace = builder ? this.placements.get(builder) : undefined;
    if (builderPlace && builderPlace.to !== 'retired') return void this.placements.set(task, { to: 'dynamic' });
    if (this.settled(task)) return this.retire(task, task.node.retired ?? retiredInfo(task.node));
    this.problem('parent_moved', task, `act '${task.node.id}' (task ${task.tid}) was built by task ${origin}, which has no place in version ${this.plan.ver}`);
  }

  private retire(task: Task, info: RetiredInfo, next: Node | null = null, cancel = false): void {
    this.placements.set(task, { to: 'retired', info, next, cancel });
  }

  /** A live task at a node the target does not have: blocked, or cancelled when the plan says so. */
  private removed(task: Task, what: string): void {
    const policy = this.plan.removed?.[task.node.id] ?? 'block';
    if (policy !== 'cancel') return this.problem('no_target', task, `${what} has no node in version ${this.plan.ver}; map it to a node, or cancel it`);
    if (task.kind !== 'act' || task.isHook) return this.problem('cancel_not_act', task, `${what} cannot be cancelled; map it to a ${task.kind} of version ${this.plan.ver}`);
    const parentNode = task.parent ? placedNode(this.placements.get(task.parent)) : undefined;
    this.retire(task, retiredInfo(task.node), this.successor(task.node, parentNode), true);
  }

  /** The first node after `node` in its old chain that the target has under `parent` (a cancelled act goes on there). */
  private successor(node: Node, parent: Node | undefined): Node | null {
    for (let next = node.next; next; next = next.next) {
      const there = this.target.tree.nodes.get(targetId(this.plan, next.id));
      if (there && there.kind === next.kind && there.parent === parent) return there;
    }
    return null;
  }

  /** Where the task sat under its parent's node, its new node sits under the parent's new node. */
  private underItsParent(task: Task, node: Node, parentPlace: Placement | undefined): boolean {
    if (!task.parent || task.node.parent !== task.parent.node) return true;
    return node.parent === placedNode(parentPlace);
  }

  /** A started act must run the same package in the target (its answer or its call is under way). */
  private packageChanged(task: Task, node: Node): boolean {
    return task.kind === 'act' && STARTED_WAITING.has(task.state) && asAct(task.node).uses !== asAct(node).uses;
  }
}

/** What keeps a whole process from migrating now, before its tasks are looked at. */
function processProblems(proc: Process, target: MigrationTarget, plan: MigrationPlan, placer: Placer): void {
  if (proc.finished) return placer.problem('finished', null, `process '${proc.pid}' is ${proc.state}`);
  if (proc.state === 'none') return placer.problem('parked', null, `process '${proc.pid}' has not started yet`);
  if (target.workflow.id !== proc.mid) return placer.problem('other_model', null, `process '${proc.pid}' runs model '${proc.mid}', not '${target.workflow.id}'`);
  if (proc.workflow.ver === plan.ver) return placer.problem('same_version', null, `process '${proc.pid}' runs version ${plan.ver}`);
  if (proc.evalChain || [...proc.tasks.values()].some((t) => t.firingTimeouts.size > 0)) return placer.problem('busy', null, `process '${proc.pid}' has work in flight`);
  const schema = target.workflow.inputs_schema;
  const inputs = proc.root?.inputs ?? {};
  const rejected = schema ? validateSchema(schema, inputs) : null;
  if (rejected) placer.problem('inputs_rejected', null, rejected);
}

/** Every reason the process cannot follow the plan now (none: it can). Changes nothing. */
export function checkMigration(proc: Process, target: MigrationTarget, plan: MigrationPlan): MigrationProblem[] {
  return placeTasks(proc, target, plan).problems;
}

function placeTasks(proc: Process, target: MigrationTarget, plan: MigrationPlan): Placer {
  const placer = new Placer(proc, target, plan);
  processProblems(proc, target, plan, placer);
  if (placer.problems.length === 0) placer.placeAll();
  return placer;
}

/** The plan an action's options carry (checked: they come from a record, a relay or a client). */
export function planOf(options: Vars): MigrationPlan {
  const { ver, map = {}, removed = {} } = options;
  const invalid = (why: string) => new ActError('action.invalid_options', `migrate needs ${why}`);
  if (typeof ver !== 'number' || !Number.isInteger(ver) || ver < 1) throw invalid(`option 'ver': the target version (a positive integer)`);
  if (!isStringMap(map, () => true)) throw invalid(`option 'map' to be an object of source node ids to target node ids`);
  if (!isStringMap(removed, (v) => (REMOVED_POLICIES as readonly string[]).includes(v))) throw invalid(`option 'removed' to be an object of node ids to ${REMOVED_POLICIES.join(' or ')}`);
  return { ver, map, removed } as MigrationPlan;
}

function isStringMap(value: unknown, ok: (v: string) => boolean): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' && ok(v));
}

/** The sentence of a refused migration: its first problem, and how many more there are. */
export function refusalSentence(pid: string, problems: MigrationProblem[]): string {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `process '${pid}' cannot migrate: ${problems[0].message}${more}`;
}

/**
 * Moves the process to the target version, or throws `process.migration_refused` (details: the
 * problems) and changes nothing. `cancel` skips a task the plan cancelled, once every task moved.
 */
export function migrateProcess(core: EngineContext, proc: Process, target: MigrationTarget, plan: MigrationPlan, cancel: (task: Task) => void): MigrationReport {
  const placer = placeTasks(proc, target, plan);
  if (placer.problems.length > 0) throw new ActError('process.migration_refused', refusalSentence(proc.pid, placer.problems), { problems: placer.problems });
  const report: MigrationReport = { pid: proc.pid, from: proc.workflow.ver, to: plan.ver, moved: 0, cancelled: [], retired: 0 };
  proc.switchModel(target.workflow, target.source, target.tree);
  for (const [task, place] of placer.placements) {
    const old = task.node;
    task.node = newNode(proc, task, place);
    if (task.node.id !== old.id) report.moved++;
    if (place.to === 'retired') {
      if (place.cancel) report.cancelled.push(task.tid);
      else if (!old.retired) report.retired++;
    }
    task.firedTimeouts = firedIn(task.node, old, task.firedTimeouts);
    if (!task.terminal && task.node.timeouts.length > task.firedTimeouts.size) core.watchTimeouts(task);
    core.markDirty(proc, task);
  }
  if (proc.control && followNodes(proc, plan)) core.controlChanged(proc);
  core.markProcDirty(proc);
  for (const task of placer.placements.keys()) if (report.cancelled.includes(task.tid)) cancel(task);
  return report;
}

function newNode(proc: Process, task: Task, place: Placement): Node {
  if (place.to === 'node') return place.node;
  const parent = task.parent?.node ?? null;
  if (place.to === 'retired') return retiredNode(task.node.id, place.info, parent, place.next);
  const node = dynamicNode(proc, task.node.origin!, task.node.id);
  if (!node) throw new ActError('internal', `process '${proc.pid}': task '${task.tid}' lost its run-time node '${task.node.id}'`);
  return node;
}

/** The timeout rules of `now` that count as fired: one of the same duration fired on the old node. */
function firedIn(now: Node, old: Node, fired: Set<number>): Set<number> {
  if (fired.size === 0 || now === old) return fired;
  const out = new Set<number>();
  for (const index of fired) {
    const rule = old.timeouts[index];
    const match = now.timeouts.findIndex((r, i) => !out.has(i) && rule !== undefined && r.on === rule.on);
    if (match >= 0) out.add(match);
  }
  return out;
}

/** Breakpoints, the pause and incidents name the nodes their tasks moved to; returns whether any changed. */
function followNodes(proc: Process, plan: MigrationPlan): boolean {
  const control = proc.control!;
  const before = JSON.stringify(control);
  control.breakpoints = [...new Set(control.breakpoints.map((nid) => targetId(plan, nid)).filter((nid) => proc.tree.nodes.has(nid)))];
  const nodeOf = (tid: string | null, nid: string | null) => (tid ? (proc.tasks.get(tid)?.node.id ?? nid) : nid);
  if (control.paused) control.paused = { ...control.paused, nid: nodeOf(control.paused.tid, control.paused.nid) };
  control.incidents = control.incidents.map((i) => ({ ...i, nid: nodeOf(i.tid, i.nid) ?? i.nid }));
  return JSON.stringify(control) !== before;
}
