/**
 * `acts secrets list | set <name> | delete <name>` (admins): the server's secrets. `list` prints
 * one JSON line per secret (name, who and when — never a value); `set` reads the value from
 * stdin (one trailing line break dropped) or from the variable named by `--from-env`, never
 * from an argument (arguments show in ps), and prints {"name","created"}; `delete` prints
 * {"name","deleted":true}.
 */
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';

export interface SecretSetFlags extends ConnectionFlags {
  fromEnv?: string;
}

/** The value to store: the variable `--from-env` names, else all of stdin. */
async function valueOf(flags: SecretSetFlags, stdin: NodeJS.ReadableStream): Promise<string> {
  if (flags.fromEnv !== undefined) {
    const value = process.env[flags.fromEnv];
    if (value === undefined || value === '') throw usage(`--from-env ${flags.fromEnv}: the variable is not set or empty`);
    return value;
  }
  if ((stdin as { isTTY?: boolean }).isTTY) throw usage('give the value on stdin (e.g. printf %s "$VALUE" | acts secrets set NAME) or with --from-env VAR');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  const value = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (value === '') throw usage('the value on stdin is empty');
  return value;
}

export function secretsListCommand(flags: ConnectionFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    const page = await client.secrets.list.query({});
    for (const row of page.rows) io.out(JSON.stringify(row));
    return EXIT.complete;
  });
}

export function secretsSetCommand(name: string, flags: SecretSetFlags, io: Io, stdin: NodeJS.ReadableStream = process.stdin): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    const value = await valueOf(flags, stdin);
    const set = await client.secrets.set.mutate({ name, value });
    io.out(JSON.stringify({ name: set.name, created: set.created }));
    return EXIT.complete;
  });
}

export function secretsDeleteCommand(name: string, flags: ConnectionFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    await client.secrets.delete.mutate({ name });
    io.out(JSON.stringify({ name, deleted: true }));
    return EXIT.complete;
  });
}
