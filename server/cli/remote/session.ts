/**
 * Runs one remote command: resolves the connection, builds the client, runs the command's body,
 * and turns any failure into one JSON line on stderr and its exit code. Results go to stdout,
 * one JSON object per line, written by the body.
 */
import { createApiClient, type ApiClient } from './client.ts';
import { resolveConnection, type Connection, type ConnectionFlags } from './connection.ts';
import type { RemoteFailure } from './failure.ts';
import { translate } from './translate.ts';

/** Where a command writes: `out` for results (stdout), `err` for failures (stderr). */
export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export interface RemoteContext {
  client: ApiClient;
  connection: Connection;
  io: Io;
}

/** Prints a failure the way every remote command does: lines for people first, then the JSON line. */
function report(failure: RemoteFailure, io: Io, preface: string[] = []): number {
  for (const line of preface) io.err(line);
  io.err(failure.line());
  return failure.exit;
}

/**
 * Runs `body` against the server of `flags`. `explain` may add lines for people before the JSON
 * error line (the problems of an invalid model). Returns the exit code.
 */
export async function runRemote(
  flags: ConnectionFlags,
  io: Io,
  body: (ctx: RemoteContext) => Promise<number>,
  explain?: (failure: RemoteFailure) => string[],
): Promise<number> {
  let connection: Connection;
  try {
    connection = resolveConnection(flags);
  } catch (err) {
    return report(translate(err, undefined), io);
  }
  try {
    return await body({ client: createApiClient(connection), connection, io });
  } catch (err) {
    const failure = translate(err, connection);
    return report(failure, io, explain?.(failure));
  }
}
