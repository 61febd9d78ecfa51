/**
 * `npm start` end to end: the real entry (server/main.ts) in a child process on a fresh SQLite
 * file and a free port; it serves the probes, the API and socket.io on one port, then stops
 * cleanly on SIGTERM (exit 0, engine closed, lease released).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { connected, openSocket } from './helpers/server.ts';

it('serves on one port and stops on SIGTERM', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acts-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `file:${path.join(dir, 'acts.db')}`, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const serving = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      if (entry.msg === 'serving') resolve(entry.url as string);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
  try {
    const url = await serving;
    expect(lines.find((l) => l.msg === 'serving')).toMatchObject({ backend: 'sqlite' });
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await fetch(`${url}/api/trpc/health.get`)).status).toBe(401);
    const socket = openSocket(url, {});
    await expect(connected(socket)).rejects.toMatchObject({ code: 'auth.required' });
    socket.disconnect();
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['stopping', 'stopped']));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
