/**
 * `acts tasks <pid>`: the tasks of one process (one JSON line each, creation order), optionally
 * only those in `--state`; `acts tasks --inbox [--view mine|groups|all] [--order …] [--overdue]`:
 * the interrupt tasks the caller may answer (each with who holds it, when it is due, its priority
 * and its last escalation).
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { MAX_PAGE, stateFilter } from './procs.ts';
import { runRemote, type Io } from './session.ts';
import { integer } from './values.ts';
import { INBOX_ORDERS, INBOX_VIEWS, orderInput, type InboxOrderChoice, type InboxView } from '../../../vocab/inbox-views.ts';

export interface TasksFlags extends ConnectionFlags {
  inbox?: boolean;
  view?: string;
  order?: string;
  overdue?: boolean;
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
      if (flags.order !== undefined && !(INBOX_ORDERS as readonly string[]).includes(flags.order)) throw usage(`--order is one of ${INBOX_ORDERS.join(', ')}`);
      const page = await client.inbox.list.query({
        mid: flags.model,
        view: flags.view as InboxView | undefined,
        ...(flags.order === undefined ? {} : orderInput(flags.order as InboxOrderChoice)),
        ...(flags.overdue ? { overdue: true } : {}),
        limit: integer(flags.limit, '--limit', 1, MAX_PAGE) ?? 50,
        offset: integer(flags.offset, '--offset', 0, 1_000_000) ?? 0,
      });
      for (const item of page.rows) io.out(JSON.stringify(item));
      return EXIT.complete;
    }
    if (pid === undefined) throw usage('give a process id (acts tasks <pid>) or --inbox');
    if (flags.model !== undefined || flags.view !== undefined || flags.order !== undefined || flags.overdue || flags.limit !== undefined || flags.offset !== undefined) {
      throw usage('--model, --view, --order, --overdue, --limit and --offset apply to --inbox only');
    }
    const state = stateFilter(flags.state);
    const { tasks } = await client.processes.get.query({ pid });
    for (const task of tasks) if (state === undefined || task.state === state) io.out(JSON.stringify(task));
    return EXIT.complete;
  });
}
