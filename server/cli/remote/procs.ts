/** `acts procs`: the server's processes, newest first, one JSON line each; filters and a page. */
import { TASK_STATES } from '../../../vocab/states.ts';
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';
import { integer } from './values.ts';

export interface ProcsFlags extends ConnectionFlags {
  model?: string;
  state?: string;
  limit?: string;
  offset?: string;
}

/** The largest page the API serves (server/api/limits.ts). */
export const MAX_PAGE = 500;

/** A state filter, checked locally: a typo would otherwise just list nothing. */
export function stateFilter(state: string | undefined): string | undefined {
  if (state !== undefined && !(TASK_STATES as readonly string[]).includes(state)) {
    throw usage(`--state '${state}' is not a state; use one of ${TASK_STATES.join(', ')}`);
  }
  return state;
}

/** Runs `acts procs`; returns the exit code. */
export function procsCommand(flags: ProcsFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    const page = await client.processes.list.query({
      mid: flags.model,
      state: stateFilter(flags.state),
      limit: integer(flags.limit, '--limit', 1, MAX_PAGE) ?? 50,
      offset: integer(flags.offset, '--offset', 0, 1_000_000) ?? 0,
    });
    for (const row of page.rows) io.out(JSON.stringify(row));
    return EXIT.complete;
  });
}
