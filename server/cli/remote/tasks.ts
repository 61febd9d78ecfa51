/**
 * `acts tasks <pid>`: the tasks of one process (one JSON line each, creation order), optionally
 * only those in `--state`; `acts tasks --inbox [--view mine|groups|all]`: the interrupt tasks the
 * caller may answer (each with who holds it).
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { MAX_PAGE, stateFilter } from './procs.ts';
import { runRemote, type Io } from './session.ts';
import { integer } from './values.ts';
import { INBOX_VIEWS, type InboxView } from '../../../vocab/inbox-views.ts';

export interface TasksFlags extends ConnectionFlags {
  inbox?: boolean;
  view?: string;
  state?: string;
  model?: string;
  limit?: string;
  offset?: string;
}

/** Runs `acts tasks`; returns the exit code. */
export function tasksCommand(pid: string | undefined, flags: TasksFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    if (flags.inbox) {
      if (pid !== undefined) throw usage('give either a process id or --inbox, not both');
      if (flags.state !== undefined) throw usage('--state does not apply to --inbox (the inbox holds open interrupts only)');
      if (flags.view !== undefined && !(INBOX_VIEWS as readonly string[]).includes(flags.view)) throw usage(`--view is one of ${INBOX_VIEWS.join(', ')}`);
      const page = await client.inbox.list.query({
        mid: flags.model,
        view: flags.view as InboxView | undefined,
        limit: integer(flags.limit, '--limit', 1, MAX_PAGE) ?? 50,
        offset: integer(flags.offset, '--offset', 0, 1_000_000) ?? 0,
      });
      for (const item of page.rows) io.out(JSON.stringify(item));
      return EXIT.complete;
    }
    if (pid === undefined) throw usage('give a process id (acts tasks <pid>) or --inbox');
    if (flags.model !== undefined || flags.view !== undefined || flags.limit !== undefined || flags.offset !== undefined) {
      throw usage('--model, --view, --limit and --offset apply to --inbox only');
    }
    const state = stateFilter(flags.state);
    const { tasks } = await client.processes.get.query({ pid });
    for (const task of tasks) if (state === undefined || task.state === state) io.out(JSON.stringify(task));
    return EXIT.complete;
  });
}
