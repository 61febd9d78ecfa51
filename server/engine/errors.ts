/**
 * The one error type of the engine. `code` is stable (clients and the API map on it); `message`
 * says what to do. `ecode` is the workflow-level error code for task errors (catch rules match it).
 */
const MARK = Symbol.for('acts.ActError');

export type ErrorCode =
  | 'model.invalid' // a model document failed parsing or validation (see `problems`)
  | 'model.not_found'
  | 'process.not_found'
  | 'process.duplicate_pid'
  | 'process.invalid_pid'
  | 'process.finished'
  | 'process.elsewhere' // the process runs on another engine instance (see `details.owner`)
  | 'process.step_budget' // the process created more tasks than its step budget (an endless loop)
  | 'process.key_conflict' // an idempotency key already started a process with another model or other inputs
  | 'inputs.invalid'
  | 'task.not_found'
  | 'action.unknown'
  | 'action.refused' // a precondition of a client action failed; nothing changed
  | 'action.invalid_options'
  | 'package.unknown'
  | 'package.invalid'
  | 'params.invalid'
  | 'trigger.not_found'
  | 'delivery.not_found'
  | 'script.error' // an expression or script threw, timed out or ran out of memory
  | 'data.too_large' // an act's result, a written value, a task's data or start inputs above value_cap_bytes
  | 'config.invalid' // a configuration value or store URL is not usable
  | 'engine.busy' // a lane is full or the store writer is saturated: the caller should retry shortly
  | 'engine.closed'
  // codes of the server (server/api, server/auth); the engine itself never throws them
  | 'auth.required' // no valid session or API token
  | 'auth.forbidden' // signed in, but the role (or assignee list) does not allow it
  | 'auth.invalid' // wrong user name or password
  | 'auth.rate_limited' // too many failed logins; retry after `details.retryAfterSecs` (`details.reason`: address, name_and_address, name)
  | 'auth.setup_done' // the one-time admin setup was already done
  | 'user.not_found'
  | 'user.duplicate'
  | 'input.invalid' // API input failed its schema (see `details.issues`)
  | 'input.too_large' // a payload above its size limit
  | 'internal';

export class ActError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'ActError';
    this.code = code;
    this.details = details;
    (this as unknown as Record<symbol, boolean>)[MARK] = true;
  }

  /** Cross-realm safe `instanceof`. */
  static is(err: unknown): err is ActError {
    return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[MARK] === true;
  }
}

/** Turns any throwable into a message string. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
