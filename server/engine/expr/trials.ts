/**
 * Expressions off the engine's thread (issue 10, item 1). Expression work of a task — its
 * `inputs` and `if`, a branch's `run`, an act's params, the outputs it finishes with — runs in a
 * *window* placed before the task's state changes. Inside a window each expression is first tried
 * on the engine's thread for a short slice, reading only; one that needs longer, or writes, stops
 * the window, and the engine's caller hands it to a code worker and runs the window again when
 * the outcome is back: the outcome is then taken from the task's memo instead of evaluated.
 *
 * State: the open window (the task, the evaluation that stopped it); per task, the outcomes
 * workers returned for the windows being re-run (`Task.evalMemo`) and how often each source was
 * evaluated in this run of them (`Task.evalCounts`, the memo's keys) — dropped when the window
 * completes, or in a chain of re-runs when the chain ends (eval-chain.ts); the sources known to
 * need a worker (they skip the trial next time; bounded, oldest dropped first).
 */
import type { Task } from '../task.ts';
import { EvaluationDeferred, type EvalMode, type Sandbox, type ScriptScope } from '../sandbox/types.ts';

/** How long an expression may run on the engine's thread before it moves to a worker. */
export const TRIAL_SLICE_MS = 5;

/** How many sources that needed a worker are remembered. */
const HEAVY_SOURCES = 10_000;

/** An evaluation a window stopped at: what the worker is to evaluate, and its memo key. */
export interface PendingEvaluation {
  key: string;
  source: string;
  mode: EvalMode;
}

export type WindowResult<T> = { done: true; value: T } | { done: false; pending: PendingEvaluation };

interface Window {
  task: Task;
  pending?: PendingEvaluation;
}

export class ExpressionTrials {
  private window: Window | undefined;
  private readonly heavy = new Set<string>();

  constructor(
    private readonly sandbox: Sandbox,
    /** The trial's time slice (0: every expression of a window goes to a worker untried). */
    private readonly sliceMs = TRIAL_SLICE_MS,
  ) {}

  /**
   * Runs `work` as a window of `task`; expressions of the task it evaluates are trials.
   * `inChain`: a re-run of a chain (eval-chain.ts) — the answers stay when the window completes.
   */
  attempt<T>(task: Task, work: () => T, inChain = false): WindowResult<T> {
    const outer = this.window;
    const window: Window = { task };
    this.window = window;
    try {
      const value = work();
      // a deferral that some catch inside `work` swallowed still stops the window: its value is unknown
      if (window.pending) return { done: false, pending: window.pending };
      if (!inChain) {
        task.evalMemo = undefined;
        task.evalCounts = undefined;
      }
      return { done: true, value };
    } catch (err) {
      if (err instanceof EvaluationDeferred && window.pending) return { done: false, pending: window.pending };
      throw err;
    } finally {
      this.window = outer;
    }
  }

  /** Evaluates for `task`: a trial inside its window (or its memo), else on this thread in full. */
  evaluate(task: Task, source: string, scope: ScriptScope, mode: EvalMode): unknown {
    const window = this.window;
    if (!window || window.task !== task) return this.sandbox.evaluate(source, scope, mode);
    // made at the first expression: most windows (outputs without templates) have none
    const counts = (task.evalCounts ??= new Map());
    const n = (counts.get(source) ?? 0) + 1;
    counts.set(source, n);
    const key = `${n}:${mode}:${source}`;
    const memo = task.evalMemo?.get(key);
    if (memo) {
      if (memo.ok) return memo.value;
      throw memo.error;
    }
    if (this.sliceMs > 0 && !this.heavy.has(source)) {
      try {
        return this.sandbox.evaluate(source, scope, mode, { sliceMs: this.sliceMs });
      } catch (err) {
        if (!(err instanceof EvaluationDeferred)) throw err;
      }
      this.remember(source);
    }
    window.pending = { key, source, mode };
    throw new EvaluationDeferred();
  }

  private remember(source: string): void {
    this.heavy.add(source);
    if (this.heavy.size > HEAVY_SOURCES) this.heavy.delete(this.heavy.values().next().value as string);
  }
}
