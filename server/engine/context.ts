/**
 * The engine's port (issue 11): everything the workflow semantics — flow.ts, kinds.ts,
 * actions.ts, hooks.ts, finish.ts, subflow.ts — use of the machine that runs them. The
 * semantics take a process and a task, change them, and say through this port what must happen
 * besides: rows to write (`markDirty`), tasks to run (`schedule`), messages to publish, children
 * to start or abort, a parent to report to, work to run off the engine's thread, a process that
 * ended. They never reach lanes, the store writer or other processes and instances themselves;
 * the implementation (server/runtime/engine-port.ts) decides how each effect is carried out and
 * made durable.
 */
import type { CodePool } from './sandbox/code-pool.ts';
import type { EvalMode, Outcome, ScriptScope } from './sandbox/types.ts';
import type { ExpressionTrials } from './expr/trials.ts';
import type { Logger } from './logger.ts';
import type { Message } from './messages.ts';
import type { Vars, Workflow } from './model/types.ts';
import type { PackageRegistry } from './packages/registry.ts';
import type { HttpSender } from './packages/http-types.ts';
import type { ShellRunner } from './packages/shell-types.ts';
import type { StateKeeper } from './packages/state-types.ts';
import type { SecretReader } from './secrets.ts';
import type { Process } from './process.ts';
import type { Snapshots } from './snapshots.ts';
import type { ErrorInfo } from './errors.ts';
import type { Task } from './task.ts';
import type { Node } from './tree/node.ts';
import type { TaskState } from '../../vocab/states.ts';
import type { NodeTree } from './tree/compile.ts';

/**
 * Points where a test host can crash the engine on purpose (see test/hosts): an action's outbox
 * record is durable but not applied; an action's effects are durable but the caller was not told;
 * a code act is running; a task's error is being reported (a throw there escapes the task guard);
 * a durable overflow record is about to go back into its lane; a code worker answered an
 * expression a window deferred, before the window's work is redone.
 */
export type FaultPoint =
  | 'action:recorded'
  | 'action:applied'
  | 'code:running'
  | 'error:reporting'
  | 'expression:answered'
  | 'overflow:replay'
  | 'start:claimed'
  | 'start:written';

/** The subflow act a child process reports to. */
export interface ParentRef {
  pid: string;
  tid: string;
}

/** How a child process ended, as its parent's subflow act hears it. */
export interface ChildEnd {
  state: string;
  outputs: Vars;
  err: ErrorInfo | null;
}

/** A version of a model, compiled: the target of a migration (migrate.ts). */
export interface MigrationTarget {
  workflow: Workflow;
  source: string;
  tree: NodeTree;
}

export interface EngineContext {
  readonly registry: PackageRegistry;
  readonly log: Logger;
  readonly snapshots: Snapshots;
  /** Windows of expression work that may move to the code workers (expr/trials.ts). */
  readonly trials: ExpressionTrials;
  /** The HTTP client of `acts.core.http` acts (its host policy is the engine's configuration). */
  readonly http: HttpSender;
  /** The runner of `acts.app.shell` scripts (refuses every one unless the configuration enables it). */
  readonly shell: ShellRunner;
  /** The keeper of `acts.app.state` values (Redis when configured, else the store). */
  readonly state: StateKeeper;
  /** The project's secrets, read by `{{ secrets.NAME }}` in act params (expr/secret-templates.ts) only. */
  readonly secrets: SecretReader;
  /** Threads for user code; none: it runs on the engine's thread. */
  readonly codePool?: CodePool;
  /** Whether an act failing with no catch holds its process as an incident when its workflow does not say (control.ts). */
  readonly incidents: boolean;
  /** The job batch the current job's writes go out with, less one (finishProcess). */
  readonly batchSeq: number;

  now(): number;
  newId(size: number): string;
  fault(point: FaultPoint): void;

  // ---- tasks and their rows ----
  createTask(proc: Process, node: Node, prev: Task | null, parent: Task | null, isHook?: boolean): Task;
  setState(proc: Process, task: Task, state: TaskState): void;
  setError(proc: Process, task: Task, err: ErrorInfo): void;
  /** The task's row (and its process's) is written with the current job. */
  markDirty(proc: Process, task: Task): void;
  markProcDirty(proc: Process): void;
  /** An open interrupt's params changed who may answer it (an escalation): its inbox rows are rebuilt with the job's batch. */
  reoffer(proc: Process, task: Task): void;
  /** The process's control (pause, breakpoints, incidents; control.ts) changed: its row goes out with the job, and the runtime tells it. */
  controlChanged(proc: Process): void;
  /** Queues the task's execution (init → run → proceed); false when it waits in the outbox. */
  schedule(proc: Process, task: Task): boolean;
  /** Keeps an `exec` record open for a queued execution until it ran, unless it has one (end-hooks.ts). */
  recordExec(proc: Process, task: Task): void;
  /** Whether the task still has work here (runtime/executions.ts). */
  stillRuns(proc: Process, task: Task): boolean;
  /** The task's timeout rules are checked on every tick from now on. */
  watchTimeouts(task: Task): void;
  /**
   * Runs `stop` once if the task closes (turns terminal) before the returned function is called:
   * work an act started beside the lanes (a shell script) stops with it.
   */
  onClose(task: Task, stop: () => void): () => void;
  /** Holds the process's lane while `work` runs off the engine's thread, then runs `then` in it. */
  offLane<T>(pid: string, name: string, work: Promise<T>, then: (outcome: Outcome<T>) => void): void;
  /**
   * Lets `work` (I/O: an HTTP call, a shell script) run beside the lanes without holding the process's lane —
   * its other jobs and the lane's other processes go on — then queues `then` as a job of the
   * process, with the outcome.
   */
  aside<T>(pid: string, name: string, work: Promise<T>, then: (outcome: Outcome<T>) => void): void;

  // ---- expressions and data ----
  evaluate(proc: Process, task: Task, source: string, mode?: EvalMode): unknown;
  evaluator(proc: Process, task: Task): (source: string) => unknown;
  scopeOf(proc: Process, task: Task): ScriptScope;
  checkSize(what: string, value: unknown): void;

  // ---- messages and process events ----
  /** A task's state changed: its row goes out with the job, and the runtime's `task` event fires. */
  taskChanged(proc: Process, task: Task): void;
  /** Publishes the message a task event produced (stored with the job, handed to channels). */
  publish(message: Message): void;
  /** The process started (`start`) or ended (`complete`, `error`); `message` is its root's. */
  publishProcessEvent(proc: Process, kind: 'start' | 'complete' | 'error', message: Message): void;
  /** Closes the deliveries of a task's waiting messages after an action settled it. */
  settleDeliveries(pid: string, tid: string): void;

  // ---- models ----
  /** Version `ver` of model `mid`, compiled, when the runtime holds it (it loads the target of a migration before the migration's job runs). */
  modelVersion(mid: string, ver: number): MigrationTarget | undefined;

  // ---- other processes ----
  /** Starts the child process of a subflow act; its start links to, or fails, the act later. */
  startChild(proc: Process, task: Task, mid: string, options: Vars): void;
  /** A finished child reports to its parent's subflow act (wherever that process runs). */
  toParent(child: Process): void;
  /** Aborts the child process of a subflow act that was closed before its child returned. */
  abortChild(task: Task): void;
  /** The process ended: it leaves the resident set (its rows stay). */
  ended(proc: Process): void;
}
