/**
 * `acts package <name> --schema <file>`: declares (or changes) an external package on a server —
 * its acts wait for remote workers (docs/server.md, Remote workers); prints `{"name","external"}`.
 * A file that is not JSON is invalid input (exit 2); the server's refusals keep their codes.
 */
import { EXIT, InputError } from '../errors.ts';
import { readText } from '../files.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';

export interface PackageFlags extends ConnectionFlags {
  schema: string;
  desc?: string;
}

async function schemaOf(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readText(file, 'schema file');
  } catch (err) {
    throw err instanceof InputError ? usage(err.message) : err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw usage(`${file} is not JSON: ${(err as Error).message}`);
  }
}

/** Runs `acts package`; returns the exit code. */
export function packageCommand(name: string, flags: PackageFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    const schema = await schemaOf(flags.schema);
    const pkg = await client.packages.register.mutate({ name, desc: flags.desc ?? '', schema });
    io.out(JSON.stringify({ name: pkg.name, external: pkg.external }));
    return EXIT.complete;
  });
}
