/** Runs the `acts` command line for real (`node bin/acts.mjs …` from the repo root); never rejects. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  /** Exit code; -1 when the child was killed (e.g. by the timeout). */
  code: number;
  stdout: string;
  stderr: string;
  /** stdout's lines parsed as JSON (a line that is not JSON: undefined). */
  lines: unknown[];
}

function jsonOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

export function runActsCli(args: string[], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const env = { ...process.env, ...options.env, NO_COLOR: '1' };
    execFile(process.execPath, ['bin/acts.mjs', ...args], { cwd: REPO_ROOT, env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr, lines: stdout.split('\n').filter((l) => l.trim() !== '').map(jsonOrUndefined) });
    });
  });
}

/** `acts …args --server <url>` with an API token: its exit code, stdout's JSON lines and the JSON error line of stderr (if the last line is one). */
export async function actsRemote(url: string, token: string, args: string[]) {
  const run = await runActsCli([...args, '--server', url], { env: { ACTS_TOKEN: token } });
  const last = run.stderr.trim().split('\n').pop() ?? '';
  return { code: run.code, lines: run.lines as Array<Record<string, unknown>>, error: last.startsWith('{') ? (JSON.parse(last) as { code: string }) : undefined };
}

/** `acts …args` as user `who` (by their API token) against a test server, as `actsRemote` answers. */
export function actsAs(server: { url: string; tokenOf(who: string): string }, who: string, args: string[]) {
  return actsRemote(server.url, server.tokenOf(who), args);
}
