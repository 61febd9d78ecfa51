/**
 * The engine's runner of `acts.app.shell` scripts (engine/packages/shell-types.ts `ShellRunner`).
 * Off unless the configuration enables it (`shell.disabled`). A script runs in its process's
 * directory: the process's workdir (spec 5.9) when it has one, else `<root>/<pid>`, made at the
 * first script and removed with the process's rows by the sweeper (`removeWorkdir`). Its
 * environment is PATH, HOME and TMPDIR (the directory), LANG, ACTS_PID and the act's `env` —
 * nothing of the server's own.
 *
 * State: the scripts running (killed, with their process groups, by `close`); closed → every
 * further script is refused.
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ActError } from '../../engine/errors.ts';
import { checkWorkdirPid, removeWorkdir } from '../../engine/owner-scope.ts';
import type { ShellRequest, ShellResult, ShellRunner } from '../../engine/packages/shell-types.ts';
import { SCRIPT_PATH, shellProgram } from './binaries.ts';
import { ScriptChild } from './script-child.ts';

export interface ShellConfig {
  /** Run shell acts at all (ACTS_SHELL_ENABLE; default false). */
  enabled?: boolean;
  /** Where processes without a workdir get theirs (ACTS_SHELL_ROOT; default `<tmp>/acts-shell`). */
  root?: string;
}

/** The sentence of `shell.disabled`, at deploy and at run. */
export const SHELL_DISABLED = 'shell acts are off on this server: an administrator enables them with ACTS_SHELL_ENABLE=1 (or shell_enable in acts.config.json)';

export class ShellProcesses implements ShellRunner {
  readonly enabled: boolean;
  /** Parent of the directories of processes that have no workdir of their own. */
  readonly root: string;
  private readonly running = new Set<ScriptChild>();
  private closed = false;

  constructor(config: ShellConfig = {}) {
    this.enabled = config.enabled === true;
    this.root = path.resolve(config.root ?? path.join(tmpdir(), 'acts-shell'));
  }

  async run(request: ShellRequest, signal?: AbortSignal): Promise<ShellResult> {
    if (!this.enabled) throw new ActError('shell.disabled', SHELL_DISABLED);
    if (this.closed) throw new ActError('engine.closed', 'the engine is shutting down');
    const program = await shellProgram(request.shell);
    const cwd = await this.directoryOf(request);
    const env = { PATH: SCRIPT_PATH, HOME: cwd, TMPDIR: cwd, LANG: 'C.UTF-8', ACTS_PID: request.pid, ...request.env };
    if (signal?.aborted) throw new ActError('shell.cancelled', 'the act was closed before its script ran');
    const child = new ScriptChild({ program, script: request.script, cwd, env, timeoutMs: request.timeoutMs, maxBytes: request.maxBytes });
    this.running.add(child);
    const cancel = () => child.cancel();
    signal?.addEventListener('abort', cancel);
    try {
      return await child.done;
    } finally {
      signal?.removeEventListener('abort', cancel);
      this.running.delete(child);
    }
  }

  /**
   * Removes `<root>/<pid>` (the sweeper, with the process's rows; also on a server that has shell
   * acts off now, for directories made while they were on); a process's own workdir is the
   * sweeper's already.
   */
  removeWorkdir(pid: string): void {
    try {
      checkWorkdirPid(pid);
    } catch {
      return; // such a pid never had a directory here
    }
    removeWorkdir(path.join(this.root, pid));
  }

  /** Kills every running script; their acts stay running (a restart runs them again). */
  close(): void {
    this.closed = true;
    for (const child of this.running) child.close();
  }

  private async directoryOf(request: ShellRequest): Promise<string> {
    if (request.workdir) return request.workdir;
    try {
      checkWorkdirPid(request.pid);
    } catch (err) {
      throw new ActError('shell.failed', `${(err as Error).message}: give the process another pid, or configure ACTS_WORKDIR_ROOT`);
    }
    const dir = path.join(this.root, request.pid);
    await mkdir(dir, { recursive: true });
    return dir;
  }
}
