/**
 * `acts claim | release <pid> <tid>`, `acts delegate <pid> <tid> <user>` and `acts reassign <pid>
 * <tid> <user> | --nobody` (admins): who works on an open inbox task (server/api/claims.ts). Each
 * prints the task's hold after the change as one JSON line: {"pid","tid","holder","delegator"}.
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';

export type HoldChange = 'claim' | 'release' | 'delegate' | 'reassign';

export interface ReassignFlags extends ConnectionFlags {
  nobody?: boolean;
}

/** Runs one change of hands; `to` is the user of delegate and reassign. */
export function holdCommand(change: HoldChange, pid: string, tid: string, to: string | undefined, flags: ReassignFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    const task = { pid, tid };
    let done;
    if (change === 'claim') done = await client.inbox.claim.mutate(task);
    else if (change === 'release') done = await client.inbox.release.mutate(task);
    else if (change === 'delegate') done = await client.inbox.delegate.mutate({ ...task, to: to ?? '' });
    else {
      if ((to === undefined) === !flags.nobody) throw usage('give the user to reassign the task to, or --nobody to free it');
      done = await client.inbox.reassign.mutate({ ...task, to: flags.nobody ? null : (to ?? null) });
    }
    io.out(JSON.stringify({ pid, tid, holder: done.hold.holder, delegator: done.hold.delegator }));
    return EXIT.complete;
  });
}
