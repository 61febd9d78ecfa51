/**
 * Where the shells of `acts.app.shell` are installed: each name is looked up once on the fixed
 * PATH the scripts get; a shell the machine does not have is `shell.unavailable`.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { ActError } from '../../engine/errors.ts';
import type { ShellName } from '../../engine/packages/shell-types.ts';

/** The PATH of every script (the act's `env` may set its own). */
export const SCRIPT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The program names each shell goes by, in the order they are looked for. */
const PROGRAMS: Record<ShellName, string[]> = { sh: ['sh'], bash: ['bash'], nu: ['nu'], powershell: ['pwsh', 'powershell'] };

const found = new Map<ShellName, Promise<string | null>>();

async function lookUp(shell: ShellName): Promise<string | null> {
  for (const program of PROGRAMS[shell]) {
    for (const dir of SCRIPT_PATH.split(':')) {
      const file = path.join(dir, program);
      if (await access(file, constants.X_OK).then(() => true, () => false)) return file;
    }
  }
  return null;
}

/** The shell's program file; `shell.unavailable` when it is not installed. */
export async function shellProgram(shell: ShellName): Promise<string> {
  let file = found.get(shell);
  if (!file) found.set(shell, (file = lookUp(shell)));
  const program = await file;
  if (!program) throw new ActError('shell.unavailable', `the shell '${shell}' is not installed on this server (looked for ${PROGRAMS[shell].join(' or ')} on ${SCRIPT_PATH}): use sh or bash, or install it`);
  return program;
}
