/**
 * A running instance of one model (spec 2.1). Holds the compiled tree and the task table.
 * State: `none` (created, not started) → `running` → the root task's terminal state. Its model
 * version changes only when a migration moves it to another (migrate.ts).
 */
import type { Vars, Workflow } from './model/types.ts';
import type { ErrorInfo } from './errors.ts';
import type { NodeTree } from './tree/compile.ts';
import type { Node } from './tree/node.ts';
import type { OwnerScope } from './owner-scope.ts';
import type { Task } from './task.ts';
import type { EvalChain } from './expr/eval-chain.ts';
import type { TaskState } from '../../vocab/states.ts';
import { isTerminal } from '../../vocab/states.ts';
import type { ControlState } from '../../vocab/control.ts';

export type ProcState = TaskState;

/** The idempotency key a process was started with, and the digest of that start (start-keys.ts). */
export interface StartKey {
  key: string;
  digest: string;
}

export class Process {
  state: ProcState = 'none';
  /** When the start was accepted (epoch ms): the admission order of parked processes. */
  created = 0;
  /** The start failed to be written: queued work of this process is dropped. */
  abandoned = false;
  /** Who started it (spec 5.9); never visible to expressions. */
  owner: OwnerScope | null = null;
  /** `<workdir root>/<pid>` when the process is confined to a directory. */
  workdir: string | null = null;
  /** When nothing could move it any more (epoch ms; set and cleared by stuck-detector.ts); 0: not stuck. */
  stuckSince = 0;
  /** Set when the start carried an idempotency key; written with every row of the process. */
  startKey: StartKey | null = null;
  err: ErrorInfo | null = null;
  /** The declared outcome the run ended on (finish.ts endOnOutcome); null for any other end. */
  outcome: string | null = null;
  /** Re-runs of a job whose windows wait for code workers (expr/eval-chain.ts); memory only. */
  evalChain: EvalChain | undefined = undefined;
  /** Pause, breakpoints, step over and incidents (control.ts); null until an operator or an incident first used them. */
  control: ControlState | null = null;
  /** Tasks the control's gate held back while the process is paused (memory only: recovery queues them again). */
  readonly held = new Set<Task>();
  startTime = 0;
  endTime = 0;
  env: Vars;
  outputs: Vars = {};
  readonly tasks = new Map<string, Task>();
  /** Children of each task (by parent tid), in creation order. */
  readonly childrenOf = new Map<string, Task[]>();
  /** Run-time nodes by the tid of the task whose definitions built them, then by node id. */
  private readonly dynamicNodes = new Map<string, Map<string, Node>>();
  private seq = 0;

  private model: { workflow: Workflow; source: string; tree: NodeTree };

  constructor(
    readonly pid: string,
    workflow: Workflow,
    source: string,
    tree: NodeTree,
    readonly parentPid: string | null,
    readonly parentTid: string | null,
  ) {
    this.model = { workflow, source, tree };
    this.env = { ...workflow.env };
  }

  /** The version of its model the process runs (a migration switches it: migrate.ts). */
  get workflow(): Workflow {
    return this.model.workflow;
  }

  /** That version's model text (the process row's snapshot). */
  get source(): string {
    return this.model.source;
  }

  get tree(): NodeTree {
    return this.model.tree;
  }

  /** Runs another version of its model from now on (migrate.ts moves its tasks to that version's nodes); run-time nodes are built again under them. */
  switchModel(workflow: Workflow, source: string, tree: NodeTree): void {
    this.model = { workflow, source, tree };
    this.dynamicNodes.clear();
  }

  get mid(): string {
    return this.workflow.id;
  }

  get root(): Task | undefined {
    return this.tasks.get('$');
  }

  get finished(): boolean {
    return isTerminal(this.state);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Continues the creation order after a reload. */
  restoreSeq(seq: number): void {
    this.seq = Math.max(this.seq, seq);
  }

  registerDynamic(origin: string, nodes: Map<string, Node>): void {
    const known = this.dynamicNodes.get(origin);
    if (!known) this.dynamicNodes.set(origin, new Map(nodes));
    else for (const [id, node] of nodes) if (!known.has(id)) known.set(id, node);
  }

  dynamicNode(origin: string, id: string): Node | undefined {
    return this.dynamicNodes.get(origin)?.get(id);
  }

  hasDynamic(origin: string): boolean {
    return this.dynamicNodes.has(origin);
  }

  add(task: Task): void {
    this.tasks.set(task.tid, task);
    if (task.parent) {
      const list = this.childrenOf.get(task.parent.tid);
      if (list) list.push(task);
      else this.childrenOf.set(task.parent.tid, [task]);
    }
  }

  children(task: Task): Task[] {
    return this.childrenOf.get(task.tid) ?? [];
  }

  /** Children that decide the parent's fate (hook tasks excluded). */
  workChildren(task: Task): Task[] {
    return this.children(task).filter((t) => !t.isHook);
  }

  /** Every task of the process whose prev is `task` (chain successors and started children). */
  followers(task: Task): Task[] {
    const out: Task[] = [];
    for (const t of this.tasks.values()) if (t.prev === task) out.push(t);
    return out;
  }

  /** Latest task of a node id (by creation order). */
  latestOf(nid: string): Task | undefined {
    let found: Task | undefined;
    for (const t of this.tasks.values()) if (t.node.id === nid && (!found || t.seq > found.seq)) found = t;
    return found;
  }

  /** Every descendant of `task` (depth first). */
  descendants(task: Task): Task[] {
    const out: Task[] = [];
    const walk = (t: Task) => {
      for (const c of this.children(t)) {
        out.push(c);
        walk(c);
      }
    };
    walk(task);
    return out;
  }
}
