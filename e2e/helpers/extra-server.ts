/**
 * A second server for tests that need a state the shared one cannot have (no admin yet, rows
 * prepared before it starts, …): `server/main.ts` on a free port with its own SQLite file, serving
 * the same studio build. State: preparing (`prepare` on the file's URL, nothing listening yet) →
 * starting (until /readyz answers) → running → stopped (SIGTERM, then SIGKILL after 5 s; its
 * directory removed) or crashed (`crash`: SIGKILL, the database kept for the next server given
 * its `databaseUrl`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './env.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ExtraServer {
  url: string;
  /** The server's SQLite database (`file:…`). */
  databaseUrl: string;
  stop(): Promise<void>;
  /** SIGKILLs the server and keeps its database (start another with `databaseUrl`). */
  crash(): Promise<void>;
}

export interface ExtraServerOptions {
  /** Runs on the server's database URL (`file:…`) before the server starts. */
  prepare?: (databaseUrl: string) => void | Promise<void>;
  timeoutMs?: number;
  /** Runs on this database (a crashed server's) instead of a new one; the caller removes it. */
  databaseUrl?: string;
}

export async function startExtraServer(env: Record<string, string> = {}, options: ExtraServerOptions = {}): Promise<ExtraServer> {
  const { timeoutMs = 30_000 } = options;
  const dir = options.databaseUrl ? null : mkdtempSync(path.join(os.tmpdir(), 'acts-e2e-extra-'));
  const databaseUrl = options.databaseUrl ?? `file:${path.join(dir!, 'acts.db')}`;
  const removeDir = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await options.prepare?.(databaseUrl);
  } catch (err) {
    removeDir();
    throw err;
  }
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server/main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ACTS_ADMIN_PASSWORD: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + String(d)).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    removeDir();
  };
  const crash = async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return { url, databaseUrl, stop, crash };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`the extra server did not get ready: ${stderr}`);
}
