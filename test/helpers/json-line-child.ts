/**
 * The client side of the JSON-lines protocol (see test/hosts/json-lines.ts): spawns a host script,
 * sends commands and resolves their replies; lines that are not replies go to `onLine`. When the
 * child exits, every pending command is rejected.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

export type HostLine = Record<string, unknown> & { id?: number; ok?: boolean; result?: unknown; error?: string };

export class JsonLineChild {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  constructor(script: string, env: Record<string, string>, onLine: (line: HostLine) => void, nodeArgs: string[] = []) {
    this.child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: 'pipe' });
    this.child.stderr.on('data', (d) => (this.stderr += String(d)));
    createInterface({ input: this.child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as HostLine;
      if (line.id === undefined) return onLine(line);
      const w = this.waiting.get(line.id);
      this.waiting.delete(line.id);
      if (line.ok) w?.resolve(line.result);
      else w?.reject(new Error(line.error));
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        const err = new Error(`engine process exited (${signal ?? code})${this.stderr ? `: ${this.stderr.slice(-2000)}` : ''}`);
        for (const w of this.waiting.values()) w.reject(err);
        this.waiting.clear();
        resolve({ code, signal });
      });
    });
  }

  send<T = unknown>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(`${JSON.stringify({ id, cmd, ...args })}\n`);
    });
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
