/**
 * One script of an `acts.app.shell` act as a child process: `<program> -c <script>` in its own
 * process group (under a small `sh` supervisor), with exactly the environment given, its stdout
 * gathered up to a limit and the tail of its stderr kept. Nothing of it outlives it: when the
 * shell exits, when the time limit passes, when stdout overflows, when the runner closes or when
 * the engine's process dies, the whole group is killed.
 *
 * State: running → settled (once): `exited` (whatever the exit code), or failed with
 * `shell.timeout`, `shell.too_large`, `shell.failed` (could not start), `shell.cancelled` (its act
 * closed), `engine.closed`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { ActError } from '../../engine/errors.ts';
import type { ShellResult } from '../../engine/packages/shell-types.ts';

/**
 * The supervisor `sh` runs around a script (`$1 -c "$2"`): it passes on the script's exit code,
 * and it watches its stdin — a pipe from the engine, never written — so that when the engine's
 * process dies, however it dies, the pipe's end kills the whole group (`kill -KILL 0`): no script
 * runs on after the engine that started it. The script itself gets /dev/null as stdin.
 */
const SUPERVISOR = [
  'exec 3<&0 </dev/null',
  '"$1" -c "$2" 3<&- &',
  'child=$!',
  '{ while read -r _ <&3; do :; done; kill -KILL 0; } &',
  'watcher=$!',
  'exec 3<&-',
  'wait "$child"; code=$?',
  'kill -KILL "$watcher" 2>/dev/null',
  'exit "$code"',
].join('\n');

/** How much of the end of stderr is kept. */
const STDERR_TAIL = 8 * 1024;

export interface ScriptSpec {
  program: string;
  script: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxBytes: number;
}

type Cut = { code: 'shell.timeout' | 'shell.too_large' | 'shell.cancelled' | 'engine.closed'; message: string };

export class ScriptChild {
  readonly done: Promise<ShellResult>;
  private readonly child: ChildProcess;
  private cut: Cut | null = null;

  constructor(spec: ScriptSpec) {
    this.child = spawn('/bin/sh', ['-c', SUPERVISOR, 'acts-shell', spec.program, spec.script], { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.done = this.settle(spec);
  }

  /** Kills the script and all it started (`engine.closed`: the act stays running; a restart runs it again). */
  close(): void {
    this.stop({ code: 'engine.closed', message: 'the engine closed while the script ran' });
  }

  /** Kills the script and all it started because its act was closed (what it printed is dropped). */
  cancel(): void {
    this.stop({ code: 'shell.cancelled', message: 'the act was closed while its script ran: the script was killed' });
  }

  private settle(spec: ScriptSpec): Promise<ShellResult> {
    const { child } = this;
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = Buffer.alloc(0);
    const timer = setTimeout(() => this.stop({ code: 'shell.timeout', message: `the script ran longer than its timeout of ${spec.timeoutMs / 1000} s and was killed (set a larger timeout, at most 86400)` }), spec.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > spec.maxBytes) return this.stop({ code: 'shell.too_large', message: `the script wrote more than its max_bytes of ${spec.maxBytes} bytes to stdout and was killed (write less, or set a larger max_bytes)` });
      out.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err = Buffer.concat([err, chunk]);
      if (err.length > STDERR_TAIL) err = err.subarray(err.length - STDERR_TAIL);
    });
    // the shell is gone: what it left running in its group goes with it (stdout then closes)
    child.on('exit', () => this.killGroup());
    return new Promise<ShellResult>((resolve, reject) => {
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new ActError('shell.failed', `the script could not start: ${e.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (this.cut) return reject(new ActError(this.cut.code, this.cut.message));
        const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
        resolve({ exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: err.toString('utf8') });
      });
    });
  }

  private stop(cut: Cut): void {
    if (this.cut) return;
    this.cut = cut;
    this.killGroup();
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
}
