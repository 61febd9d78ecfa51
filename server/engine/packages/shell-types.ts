/**
 * What an `acts.app.shell` act asks of the engine's shell runner (the runtime's, which runs the
 * script in a child process off the engine's thread) and what comes back.
 */

/** The shells a script may name; each runs only when the server has it installed. */
export const SHELLS = ['sh', 'bash', 'nu', 'powershell'] as const;
export type ShellName = (typeof SHELLS)[number];

/** A script as an act's params say to run it. */
export interface ShellScript {
  shell: ShellName;
  /** The script, its templates rendered. */
  script: string;
  /** Variables added to the script's fixed environment (PATH, HOME, LANG, TMPDIR, ACTS_PID). */
  env: Record<string, string>;
  /** Most time the script may run, ms; then its whole process group is killed. */
  timeoutMs: number;
  /** Largest stdout, bytes; past it the script is killed. */
  maxBytes: number;
}

/** A script and the process whose act runs it: that process's directory is its working directory. */
export interface ShellRequest extends ShellScript {
  pid: string;
  /** The process's own workdir (spec 5.9) when it has one; else the runner's `<shell root>/<pid>`. */
  workdir: string | null;
}

export interface ShellResult {
  /** 0 when the script succeeded. */
  exitCode: number;
  stdout: string;
  /** At most the last 8 KiB of stderr. */
  stderr: string;
}

/** The engine's shell runner: `run` fails with an `ActError` whose code is `shell.*`. */
export interface ShellRunner {
  /** `signal` aborted: the script is killed with its group (its act was closed); the run fails. */
  run(request: ShellRequest, signal?: AbortSignal): Promise<ShellResult>;
}
