/**
 * `acts users list | email <user> <address> | email <user> --none` (admins): the users, one JSON
 * line each (never a password hash), and the address inbox notifications go to (server/notify);
 * `email` prints the user after the change as one JSON line.
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';

export interface UserEmailFlags extends ConnectionFlags {
  none?: boolean;
}

export function usersListCommand(flags: ConnectionFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    for (const user of (await client.users.list.query({})).rows) io.out(JSON.stringify(user));
    return EXIT.complete;
  });
}

export function usersEmailCommand(name: string, address: string | undefined, flags: UserEmailFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    if ((address === undefined) === !flags.none) throw usage('give the address, or --none to remove it (acts users email <user> <address>)');
    const user = (await client.users.list.query({})).rows.find((u) => u.name === name);
    if (!user) throw usage(`no user named '${name}' (acts users list)`);
    io.out(JSON.stringify(await client.users.setEmail.mutate({ id: user.id, email: flags.none ? null : address! })));
    return EXIT.complete;
  });
}
