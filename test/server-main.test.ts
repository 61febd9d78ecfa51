/**
 * `npm start` end to end: the real entry (server/main.ts, API only: the studio has its own e2e
 * suite) in a child process on a fresh SQLite file and a free port; it serves the probes, the API and socket.io on one port, signs in the
 * admin of ACTS_ADMIN_PASSWORD (or says the setup is open), says plainly where it is ready, then stops cleanly on SIGTERM
 * (exit 0, engine closed, lease released).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { connected, openSocket } from './helpers/server.ts';
import { eventually } from './helpers/eventually.ts';

interface Main {
  child: ChildProcess;
  url: string;
  /** Every stdout line so far, parsed, and as text. */
  lines: Array<Record<string, unknown>>;
  text: string[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts server/main.ts on a fresh SQLite file; resolves once it logs `serving`. */
async function startMain(env: Record<string, string>, run: (main: Main) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acts-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `file:${path.join(dir, 'acts.db')}`, LOG_LEVEL: 'info', ACTS_ADMIN_PASSWORD: '', ACTS_STUDIO: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const text: string[] = [];
  const serving = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      text.push(line);
      if (!line.startsWith('{')) return; // every log line is JSON; anything else is kept as text
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      if (entry.msg === 'serving') resolve(entry.url as string);
    });
    child.stderr!.on('data', (chunk: Buffer) => text.push(String(chunk)));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text.join('\n')}`)));
  });
  try {
    const url = await serving;
    await run({
      child,
      url,
      lines,
      text,
      stop: async () => {
        child.kill('SIGTERM');
        const [code] = (await once(child, 'exit')) as [number | null];
        return code;
      },
    });
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A real server process: under load (a loaded CI machine) its start alone took ~20 s. */
const SERVER_PROCESS_MS = 120_000;

it('serves on one port, says the first-admin setup is open, and stops on SIGTERM', { timeout: SERVER_PROCESS_MS }, async () => {
  await startMain({}, async ({ url, lines, text, stop }) => {
    expect(lines.find((l) => l.msg === 'serving')).toMatchObject({ backend: 'sqlite' });
    // one plain line for the person at the terminal, on stderr (stdout stays JSON lines)
    const port = new URL(url).port;
    await eventually(async () => text.some((t) => t.includes('is ready')), 'the ready line is printed', 500);
    expect(text.filter((t) => t.includes('is ready'))).toEqual([`acts-studio is ready: open http://127.0.0.1:${port} — the API (the studio is off: ACTS_STUDIO)\n`]);
    expect(lines.find((l) => String(l.msg).includes('setup is open'))).toMatchObject({ level: 40 });
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    // ready once the (here empty) recovery that runs behind the serving API is done
    await eventually(async () => (await fetch(`${url}/readyz`)).status === 200, '/readyz answers 200', 500);
    expect((await fetch(`${url}/api/trpc/health.get`)).status).toBe(401);
    expect(await (await fetch(`${url}/api/trpc/auth.setupNeeded`)).json()).toMatchObject({ result: { data: { needed: true } } });
    const socket = openSocket(url, {});
    await expect(connected(socket)).rejects.toMatchObject({ code: 'auth.required' });
    socket.disconnect();
    expect(await stop()).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['stopping', 'stopped']));
  });
});

it('creates the admin of ACTS_ADMIN_PASSWORD (logged without the password), who can sign in', { timeout: SERVER_PROCESS_MS }, async () => {
  const password = 'main-admin-Passw0rd';
  await startMain({ ACTS_ADMIN_PASSWORD: password }, async ({ url, lines, text, stop }) => {
    expect(lines.find((l) => l.msg === 'admin user created from ACTS_ADMIN_PASSWORD')).toMatchObject({ user: 'admin' });
    expect(lines.some((l) => String(l.msg).includes('setup is open'))).toBe(false);
    const login = await fetch(`${url}/api/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-acts-csrf': '1' }, body: JSON.stringify({ name: 'admin', password }) });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    expect((await fetch(`${url}/api/trpc/health.get`, { headers: { cookie } })).status).toBe(200);
    expect(await stop()).toBe(0);
    expect(text.join('\n')).not.toContain(password);
    expect(text.join('\n')).not.toContain(cookie.split('=')[1]);
  });
});
