/** Exit codes of the `acts` command line (a contract: scripts and tests depend on them). */
export const EXIT = {
  complete: 0,
  processError: 1,
  invalidInput: 2,
  waiting: 3,
  /** Remote commands: the server could not be reached, or did not answer like an acts server. */
  unreachable: 4,
  /** Remote commands: the server refused the credentials (`auth.*`: missing, invalid, or a role too small). */
  unauthorized: 5,
  /** Remote commands: the server refused the request (`process.not_found`, `action.refused`, `engine.busy` …). */
  refused: 6,
} as const;

/** A problem with what the user gave us: one clear line on stderr, exit 2, no stack trace. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}
