/**
 * Owner scope and workdir confinement (spec 5.9). The caller's authority travels with a start as
 * trusted server-side context — never as a start option: a client option named `$owner` is
 * refused — so it can neither fail an input schema nor leak into workflow variables. With a
 * workdir root (engine configuration, or the caller's scope), each process gets `<root>/<pid>`,
 * which lives exactly as long as the process rows: created at start, removed by the sweeper or
 * when the start is undone.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ActError } from './errors.ts';

export interface OwnerScope {
  /** Who started the process (a user or token id). */
  id: string;
  roles?: string[];
  /** Confine the process to `<workdirRoot>/<pid>`. */
  workdirRoot?: string;
}

export const RESERVED_OWNER_KEY = '$owner';

/** A pid used as a directory name must be one safe path component. */
export function checkWorkdirPid(pid: string): void {
  // eslint-disable-next-line no-control-regex
  const unsafe = pid === '.' || pid === '..' || /[/\\:\u0000-\u001f\u007f]/.test(pid);
  if (unsafe) throw new ActError('process.invalid_pid', `pid '${pid}' cannot be used as a workdir name (one path component, no '/', '\\', ':' or control characters)`);
}

export function createWorkdir(root: string, pid: string): string {
  const dir = path.join(path.resolve(root), pid);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeWorkdir(dir: string | null | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
