/**
 * Drives test/hosts/engine-host.ts as a real child process: send commands, await replies, collect
 * messages, and observe the process dying (SIGKILL from a fault point) or kill it from outside.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface HostMessage {
  key: string;
  state: string;
  type: string;
  pid: string;
  tid: string;
}

export class EngineProcess {
  readonly messages: HostMessage[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private readyResolve!: () => void;
  readonly ready: Promise<void>;
  stderr = '';

  constructor(store: string, crashAt?: string, env: Record<string, string> = {}) {
    this.ready = new Promise((resolve) => (this.readyResolve = resolve));
    this.child = spawn(process.execPath, ['--import', 'tsx', 'test/hosts/engine-host.ts'], {
      env: { ...process.env, ACTS_STORE: store, ACTS_CRASH_AT: crashAt ?? '', ...env },
      stdio: 'pipe',
    });
    this.child.stderr.on('data', (d) => (this.stderr += String(d)));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.onLine(line));
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        for (const w of this.waiting.values()) w.reject(new Error(`engine process exited (${signal ?? code})`));
        this.waiting.clear();
        resolve({ code, signal });
      });
    });
  }

  private onLine(line: string): void {
    const data = JSON.parse(line) as { ready?: boolean; message?: HostMessage; id?: number; ok?: boolean; result?: unknown; error?: string };
    if (data.ready) this.readyResolve();
    else if (data.message) this.messages.push(data.message);
    else if (data.id !== undefined) {
      const w = this.waiting.get(data.id);
      this.waiting.delete(data.id);
      if (data.ok) w?.resolve(data.result);
      else w?.reject(new Error(data.error));
    }
  }

  send<T = unknown>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
    });
  }

  created(key: string): HostMessage[] {
    return this.messages.filter((m) => m.key === key && m.state === 'created' && m.type === 'act');
  }

  kill(): Promise<unknown> {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  async stop(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}
