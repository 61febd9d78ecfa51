/**
 * The contract between the engine and the expression sandbox (spec 1.8, 2.12).
 *
 * The engine builds a `ScriptScope` for the task an expression runs for; the sandbox exposes it to
 * the script as globals and helper functions. Everything the script can reach goes through this
 * scope: the sandbox itself has no access to the host (no `require`, `process`, files, network).
 */
import type { Vars } from '../model/types.ts';

export interface StepAccess {
  /** Reads a key of that step's data (latest task of the node). */
  get(key: string): unknown;
  /** Writes a key of that step's data; throws when the step task is already terminal. */
  set(key: string, value: unknown): void;
  data(): Vars;
  inputs(): Vars;
}

export interface ScriptScope {
  /** True when `name` is a variable visible to the task (its data or any ancestor's). */
  has(name: string): boolean;
  /** Nearest value of `name` walking up from the task; `undefined` when not visible. */
  get(name: string): unknown;
  /** `$set(name, value)`: write with the propagation rule of spec 2.11(2). */
  set(name: string, value: unknown): void;
  /** `$inputs()` */
  inputs(): Vars;
  /** `$data()` */
  data(): Vars;
  /** `$set_process_var(name, value)` */
  setProcessVar(name: string, value: unknown): void;
  /** `$env.name` read: process env, falling back to the OS environment. */
  envGet(name: string): unknown;
  /** `$env.name = v`: writes the process env only. */
  envSet(name: string, value: unknown): void;
  /** Step proxies: `<stepId>` globals for steps that have a task in the process. */
  step(id: string): StepAccess | undefined;
  /** User vars such as `secrets`: default data overlaid by the task-visible variable of that name. */
  userVar(name: string): Vars | undefined;
  /** `console.*` output. */
  log(level: 'log' | 'info' | 'warn' | 'error', message: string): void;
}

export type EvalMode =
  /** Script with completion-value semantics: `let a = 1; a + 1` → 2. */
  | 'script'
  /** Body of an arrow function, so `return` works (acts.transform.code). */
  | 'function';

export interface SandboxLimits {
  /** Wall-clock budget of one evaluation in ms (default 200). */
  timeoutMs: number;
  /** Memory limit of the JS runtime in bytes (default 32 MiB). */
  memoryBytes: number;
  /** Max stack size in bytes (default 512 KiB). */
  stackBytes: number;
}

export interface Sandbox {
  /**
   * Evaluates `source` for one task and returns its JSON-compatible result (`undefined` → null).
   * Throws `ActError` with code `script.error` when the script throws, exceeds a limit, or returns
   * something that has no JSON form (function, symbol, promise). After a limit breach the sandbox
   * stays usable for the next evaluation.
   */
  evaluate(source: string, scope: ScriptScope, mode?: EvalMode, trial?: TrialOptions): unknown;
  /** Checks that `source` compiles, without running it; returns the syntax error message or null. */
  checkSyntax(source: string, mode?: EvalMode): string | null;
  close(): void;
}

/**
 * A trial evaluation: it may run only `sliceMs` on the calling thread and may not write; if it
 * needs more (time, or a write) it throws `EvaluationDeferred` and has changed nothing.
 */
export interface TrialOptions {
  sliceMs: number;
}

/** Thrown by a trial evaluation that must be evaluated again off the engine's thread. */
export class EvaluationDeferred extends Error {
  constructor() {
    super('the evaluation continues on a code worker');
    this.name = 'EvaluationDeferred';
  }
}

/** How work off the engine's thread ended (code, an expression): its value, or the error it threw. */
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: unknown };
