/**
 * A real `acts` server as a child process (`server/main.ts` with the V8 flags of node-flags.ts:
 * what `npm start` runs), for tests and benchmarks that need separate processes: it listens on a
 * free port, signs in as the admin that `ACTS_ADMIN_PASSWORD` created, and hands out tRPC clients
 * and socket.io clients with that session.
 *
 * State: starting (until its `serving` log line names the URL) → running → stopped (SIGTERM, or
 * SIGKILL after 10 s) or killed (`kill()`: SIGKILL, a crash).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTRPCClient, httpLink } from '@trpc/client';
import { io as connect, type Socket } from 'socket.io-client';
import type { AppRouter } from '../../server/api/router.ts';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.ts';
import { REPO_ROOT } from '../../server/store/schema-engine.mjs';

export const ADMIN_PASSWORD = 'admin-password-for-tests';

/** Linux's clock ticks per second in /proc's CPU times (USER_HZ, 100 on every mainstream build). */
const CLOCK_TICKS = 100;

export type ApiClient = ReturnType<typeof createTRPCClient<AppRouter>>;

export class ServerProcess {
  url = '';
  cookie = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;

  constructor(databaseUrl: string, env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', path.join(REPO_ROOT, 'server/main.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: '0',
        ACTS_ADMIN_PASSWORD: ADMIN_PASSWORD,
        ACTS_STUDIO: 'off',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stderr!.on('data', (d) => (this.stderr = (this.stderr + String(d)).slice(-20_000)));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.ready = new Promise((resolve, reject) => {
      createInterface({ input: this.child.stdout! }).on('line', (text) => {
        try {
          const line = JSON.parse(text) as { msg?: string; url?: string };
          if (line.msg === 'serving' && line.url) {
            this.url = line.url;
            resolve();
          }
        } catch {
          // not a log line
        }
      });
      void this.exited.then((code) => reject(new Error(`the server exited (${code}) before serving: ${this.stderr}`)));
    });
    // a server expected to refuse to start is never started: its refusal is no unhandled rejection
    this.ready.catch(() => undefined);
  }

  /** Waits until it serves, then signs in as `admin`. */
  async start(): Promise<this> {
    await this.ready;
    const res = await fetch(`${this.url}/api/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-acts-csrf': '1' },
      body: JSON.stringify({ name: 'admin', password: ADMIN_PASSWORD }),
    });
    if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('acts_session='));
    if (!cookie) throw new Error('admin login set no session cookie');
    this.cookie = cookie.split(';')[0];
    return this;
  }

  /** A tRPC client signed in as the admin. */
  client(): ApiClient {
    return createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${this.url}/api/trpc`, headers: () => ({ cookie: this.cookie, 'x-acts-csrf': '1' }) })],
    });
  }

  /** A socket.io client signed in as the admin (resolves once connected). */
  async socket(): Promise<Socket> {
    const socket = connect(this.url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: { cookie: this.cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  /** CPU time the server process has used so far, in ms (user + system, all its threads; Linux /proc). */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    // the fields after the command name (which may hold spaces), from field 3 on
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }

  /** Kills it at once (SIGKILL: a crash, nothing is cleaned up); resolves once it is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exited;
  }
}

/** Leaves a live room. */
export function leaveRoom(socket: Socket, room: string): Promise<unknown> {
  return socket.timeout(5000).emitWithAck('leave', { room });
}

/** Joins a live room; resolves with the server's reply. */
export function joinRoom(socket: Socket, room: string, cursor?: number): Promise<{ ok: boolean; error?: unknown }> {
  return socket.timeout(5000).emitWithAck('join', { room, cursor }) as Promise<{ ok: boolean; error?: unknown }>;
}
