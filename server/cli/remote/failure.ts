/**
 * Failures of the remote commands: a stable `code`, a message a person can act on, whether a
 * retry may help, and the exit code. Server errors keep the server's code; the CLI adds
 * `usage.invalid` (bad flags, missing server or token), `server.unreachable` (network, DNS,
 * timeout) and `server.bad_response` (something answered, but not an acts API).
 */
import { EXIT } from '../errors.ts';

/** Server codes that mean "the request itself is wrong": exit 2 like any invalid input. */
const INVALID_INPUT = new Set([
  'usage.invalid',
  'model.invalid',
  'input.invalid',
  'input.too_large',
  'inputs.invalid',
  'action.unknown',
  'action.invalid_options',
  'params.invalid',
  'process.invalid_pid',
]);

/** Codes after which the same request may succeed later. */
const RETRYABLE = new Set(['server.unreachable', 'engine.busy', 'engine.closed', 'auth.rate_limited']);

/** A failure of a remote command, printed as one JSON line on stderr. */
export class RemoteFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'RemoteFailure';
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  /** The exit code of this failure (see server/cli/errors.ts). */
  get exit(): number {
    if (INVALID_INPUT.has(this.code)) return EXIT.invalidInput;
    if (this.code.startsWith('server.')) return EXIT.unreachable;
    if (this.code.startsWith('auth.')) return EXIT.unauthorized;
    return EXIT.refused;
  }

  /** The stderr line: `{"code","message","retryable"[,"details"]}`. */
  line(): string {
    const base = { code: this.code, message: this.message, retryable: this.retryable };
    return JSON.stringify(this.details === undefined ? base : { ...base, details: this.details });
  }
}

/** A usage error found before anything was sent. */
export function usage(message: string): RemoteFailure {
  return new RemoteFailure('usage.invalid', message);
}
