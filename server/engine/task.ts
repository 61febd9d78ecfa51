/**
 * One execution of one node (spec 2.1). State machine: see vocab/states.ts. `prev` is the task that
 * scheduled this one (the chain predecessor or the parent that started it); `parent` is the
 * enclosing task, fixed at creation. Hook tasks run beside their owner and never decide its fate.
 */
import type { Act, Vars } from './model/types.ts';
import type { ErrorInfo } from './errors.ts';
import type { Node } from './tree/node.ts';
import type { TaskState } from '../../vocab/states.ts';
import { isTerminal } from '../../vocab/states.ts';
import type { Outcome } from './sandbox/types.ts';

/** A task's `touch` until the runtime wires it (one function for all, not one per task). */
function untouched(): void {}

export class Task {
  state: TaskState = 'none';
  data: Vars = {};
  /** Computed inputs (spec 2.11(1)), shown in messages and `$inputs()`. */
  inputs: Vars = {};
  err: ErrorInfo | null = null;
  startTime = 0;
  endTime = 0;
  /** Outputs computed when the task finished (spec 2.11(3)). */
  outputs: Vars | undefined = undefined;
  /** Pid of the child process a subflow act started. */
  childPid: string | null = null;
  /** Evaluated params, cached on first read so an act sees one stable value (spec 1.8). */
  params: unknown = undefined;
  paramsReady = false;
  /**
   * The params with the values of the secrets they read (`{{ secrets.NAME }}`), for the act's run
   * only, and those values: memory only, never in a row (`params` has `***` in their place).
   */
  clearParams: unknown = undefined;
  secretValues: string[] | undefined = undefined;
  /** Options carried on the act (node options + options passed down by a block). */
  options: Vars = {};
  /** Keys marked as outputs: set/code results, action options, outputs received from children. */
  outputKeys = new Set<string>();
  /** Messages are suppressed for this task (func acts, branches). */
  emitDisabled = false;
  /** When false the act waits for an explicit action even after its children finish (subflow). */
  autoComplete = true;
  /** A catch rule already handled an error of this task (spec 2.9). */
  caught = false;
  /** Indexes of timeout rules that already fired (section 0.15: once per task and rule). */
  firedTimeouts = new Set<number>();
  /** Timeout rules found due whose firing job is queued (memory only: a crash re-arms them). */
  firingTimeouts = new Set<number>();
  /** The `created` hook fired already. */
  createdHookFired = false;
  /** Set once the task's completion was propagated (successor scheduled or parent reviewed). */
  propagated = false;
  /** Acts this task expanded into (block/parallel/sequence), kept to rebuild them after a reload. */
  expansion: { mode: 'sequence' | 'parallel'; acts: Act[] } | null = null;
  /** Acts pushed into this step, kept to rebuild them after a reload. */
  pushed: Act[] = [];
  /** Called whenever the task's stored state changes outside the engine's own state writes. */
  touch: () => void = untouched;
  /** Outcomes of expressions a code worker evaluated for the windows being re-run (expr/trials.ts). */
  evalMemo: Map<string, Outcome> | undefined = undefined;
  /** How often each source was evaluated in the task's windows of this run (the memo's keys; expr/eval-chain.ts). */
  evalCounts: Map<string, number> | undefined = undefined;
  /**
   * Outputs evaluated before an operation closed the task (in a window, maybe on a code worker;
   * closing.ts): the next `outputsOf` of the task returns them once; the operation drops any left.
   */
  closingOutputs: Vars | undefined = undefined;
  /** The engine's job batch that created the task (memory only; see finishProcess). */
  createdInBatch = 0;
  /** Monotonic creation order inside the process. */
  readonly seq: number;

  constructor(
    readonly pid: string,
    readonly tid: string,
    /** Fixed at creation, except that a migration moves it to the node of another version (migrate.ts). */
    public node: Node,
    readonly prev: Task | null,
    readonly parent: Task | null,
    readonly isHook: boolean,
    seq: number,
  ) {
    this.seq = seq;
  }

  get kind() {
    return this.node.kind;
  }

  /** Whether the task is a hook or runs inside one (a block a hook expanded into). */
  get inHook(): boolean {
    for (let t: Task | null = this; t; t = t.parent) if (t.isHook) return true;
    return false;
  }

  get terminal(): boolean {
    return isTerminal(this.state);
  }
}
