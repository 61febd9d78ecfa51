/**
 * `acts groups list | create <name> | remove <name> | add <group> <user> | remove-member <group>
 * <user>` (admins): the teams interrupt acts are offered to (`params.candidate_groups`). `list`
 * prints one JSON line per group (name, description, members); the others print the group's (or
 * the user's) state after the change as one JSON line.
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { runRemote, type Io } from './session.ts';

export interface GroupCreateFlags extends ConnectionFlags {
  desc?: string;
}

export function groupsListCommand(flags: ConnectionFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    for (const group of (await client.groups.list.query({})).rows) io.out(JSON.stringify(group));
    return EXIT.complete;
  });
}

export function groupsCreateCommand(name: string, flags: GroupCreateFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    io.out(JSON.stringify(await client.groups.create.mutate({ name, description: flags.desc ?? '' })));
    return EXIT.complete;
  });
}

export function groupsRemoveCommand(name: string, flags: ConnectionFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    await client.groups.remove.mutate({ name });
    io.out(JSON.stringify({ name, removed: true }));
    return EXIT.complete;
  });
}

/** Adds (`member` true) or removes a user; prints {"group","user","groups"}: the user's groups after it. */
export function groupsMemberCommand(group: string, user: string, member: boolean, flags: ConnectionFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    const input = { name: group, user };
    const info = member ? await client.groups.addMember.mutate(input) : await client.groups.removeMember.mutate(input);
    io.out(JSON.stringify({ group, user, groups: info.groups }));
    return EXIT.complete;
  });
}
