/**
 * The one error type of the engine. `code` is stable (clients and the API map on it; the codes
 * and their traits are listed in vocab/engine-codes.ts and vocab/server-codes.ts); `message` says
 * what to do. `ecode` is the workflow-level error code for task errors (catch rules match it).
 */
import type { ErrorCode } from '../../vocab/server-codes.ts';

export type { ErrorCode };

const MARK = Symbol.for('acts.ActError');

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

/** A task's or a process's error as workflows see it: `ecode` (catch rules match it) and a message. */
export interface ErrorInfo {
  ecode: string;
  message: string;
  /** The declared outcome that raised it (vocab/outcomes.ts): uncaught, the run ends on it instead of in error. */
  outcome?: string;
}

/**
 * What fails a task with an `ecode` of its own (an `acts.core.http` act's HTTP status or error
 * code) instead of the empty one of engine-raised errors: thrown inside a task's job, the task's
 * error is `info` as it is, so catch rules can match it (`catches: [{on: "404"}]`).
 */
export class TaskFailure extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
    this.name = 'TaskFailure';
  }
}

/**
 * An `ActError` of a package's own family (`prefix`, e.g. `http.` or `shell.`) fails the act with
 * its code as the `ecode`, so catch rules can match it (`catches: [{on: shell.exit}]`); any
 * other error passes unchanged.
 */
export function familyFailure(err: unknown, prefix: string): unknown {
  return ActError.is(err) && err.code.startsWith(prefix) ? new TaskFailure({ ecode: err.code, message: err.message }) : err;
}
