/**
 * The wire protocol between the host and the bootstrap script running inside QuickJS.
 *
 * The VM reaches the host through one function, `host(op, ...args)`; every value crosses the
 * boundary as JSON text. The host drives the VM through one function, `exec(mode, source)`, which
 * returns JSON text as well.
 */

/** Operations the VM asks the host for (first argument of `host`). */
export const Op = {
  /** `(name)` → JSON of the nearest value, `'s'` for a step proxy, or undefined when unknown. */
  Lookup: 1,
  /** `(name)` → JSON of the nearest value, or undefined. */
  Get: 2,
  /** `(name, json)` */
  Set: 3,
  Inputs: 4,
  Data: 5,
  /** `(name, json)` */
  SetProcessVar: 6,
  /** `(name)` → JSON or undefined. */
  EnvGet: 7,
  /** `(name, json)` */
  EnvSet: 8,
  /** `(stepId, key)` → JSON or undefined. */
  StepGet: 9,
  /** `(stepId, key, json)` */
  StepSet: 10,
  StepData: 11,
  StepInputs: 12,
  /** `(level, message)` */
  Log: 13,
  /** The VM found state it cannot clean up (a global it cannot delete); the host must rebuild it. */
  Dirty: 14,
  /** A guarded builtin found the evaluation past its deadline: the host grants more ms (it waited for a CPU) or throws. */
  Expired: 15,
} as const;

/** What `exec` does with its source (first argument of `exec`). */
export const Mode = {
  /** Run as a script with completion-value semantics; returns the JSON of the result. */
  Script: 0,
  /** Run as the body of an arrow function; returns the JSON of its return value. */
  Function: 1,
  /** Returns JSON `true` when the source compiles as one expression, else `false`. */
  CheckExpression: 2,
  /** Returns JSON `null` when the source compiles as a function body, else the JSON error message. */
  CheckFunction: 3,
} as const;

/** The marker returned by `Op.Lookup` for a step proxy (never the start of JSON text). */
export const STEP_MARK = 's';

/** Lines the function-mode wrapper puts before the user source (for syntax error line numbers). */
export const FUNCTION_WRAPPER_LINES = 3;
