/**
 * Expression evaluation for the engine's port: a task's expressions see its scope (engine/scope.ts)
 * and run as trials inside a window when one is open (engine/expr/trials.ts), else in full on this
 * thread; values that enter a task are bounded by `value_cap_bytes`. State: the user variables
 * every scope sees (`secrets`), and the trials' record of heavy sources.
 */
import type { Logger } from '../engine/logger.ts';
import { ExpressionTrials } from '../engine/expr/trials.ts';
import type { Vars } from '../engine/model/types.ts';
import type { Process } from '../engine/process.ts';
import type { EvalMode, Sandbox, ScriptScope } from '../engine/sandbox/types.ts';
import { scopeFor, type ScopeServices } from '../engine/scope.ts';
import type { Task } from '../engine/task.ts';
import { checkValueSize } from '../engine/value-cap.ts';

export class Expressions {
  readonly userVars = new Map<string, Vars>([['secrets', {}]]);
  /** Windows of expression work that may move to the code workers (see expr/trials.ts). */
  readonly trials: ExpressionTrials;
  private readonly services: ScopeServices;

  constructor(
    sandbox: Sandbox,
    trialSliceMs: number,
    private readonly valueCapBytes: number,
    /** A process row changed (a script wrote its env). */
    touchProcess: (proc: Process) => void,
    log: Logger,
  ) {
    this.trials = new ExpressionTrials(sandbox, trialSliceMs);
    this.services = {
      userVars: this.userVars,
      checkSize: (what, value) => this.checkSize(what, value),
      touchProcess,
      log: (level, message, task) => log[level === 'log' ? 'info' : level](`[${task.pid}:${task.tid}] ${message}`),
    };
  }

  /** Throws `data.too_large` when `value` is above `value_cap_bytes`. */
  checkSize(what: string, value: unknown): void {
    checkValueSize(what, value, this.valueCapBytes);
  }

  evaluate(proc: Process, task: Task, source: string, mode: EvalMode = 'script'): unknown {
    return this.trials.evaluate(task, source, this.scopeOf(proc, task), mode);
  }

  evaluator(proc: Process, task: Task): (source: string) => unknown {
    return (source) => this.evaluate(proc, task, source);
  }

  /** The scope an expression of the task sees. */
  scopeOf(proc: Process, task: Task): ScriptScope {
    return scopeFor(proc, task, this.services);
  }
}
