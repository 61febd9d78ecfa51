/**
 * Failures of the remote commands: a stable `code`, a message a person can act on, whether a
 * retry may help, and the exit code. Server errors keep the server's code; the CLI adds
 * `usage.invalid` (bad flags, missing server or token), `server.unreachable` (network, DNS,
 * timeout) and `server.bad_response` (something answered, but not an acts API). Whether a code is
 * retryable or an invalid request is data of the code tables (vocab/server-codes.ts).
 */
import { codeTraits } from '../../../vocab/server-codes.ts';
import { EXIT } from '../errors.ts';

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

  /** Whether the same request may succeed later (the code's `retryable`; unknown codes: no). */
  get retryable(): boolean {
    return codeTraits(this.code)?.retryable ?? false;
  }

  /** The exit code of this failure (see server/cli/errors.ts). */
  get exit(): number {
    if (codeTraits(this.code)?.invalidRequest) return EXIT.invalidInput;
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
