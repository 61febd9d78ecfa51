/**
 * `acts act <pid> <tid> <action>`: one client action on a task (complete, submit, back, cancel,
 * abort, skip, error, push, remove, set-vars, outcome) with options from `--options <json>` and `--option k=v`;
 * prints the server's answer `{"pid","tid","action"}`.
 */
import { EXIT } from '../errors.ts';
import { isTaskAction, procedureOf, TASK_ACTIONS } from './actions.ts';
import type { ConnectionFlags } from './connection.ts';
import { RemoteFailure } from './failure.ts';
import { runRemote, type Io } from './session.ts';
import { mergeValues } from './values.ts';

export interface ActFlags extends ConnectionFlags {
  options?: string;
  option: string[];
}

/** Runs `acts act`; returns the exit code. */
export function actCommand(pid: string, tid: string, action: string, flags: ActFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    if (!isTaskAction(action)) {
      throw new RemoteFailure('action.unknown', `unknown action '${action}': use one of ${TASK_ACTIONS.join(', ')}`);
    }
    const options = mergeValues(flags.options, flags.option, { json: '--options', pair: '--option' });
    const result = await client.tasks[procedureOf(action)].mutate({ pid, tid, options });
    io.out(JSON.stringify(result));
    return EXIT.complete;
  });
}
