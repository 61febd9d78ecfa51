/**
 * `acts.app.state` values on Redis (ACTS_STATE_REDIS_URL): the value of `key` of process `pid`
 * is the JSON string at `<prefix><pid>:<key>` (spec 1.9.2's layout). The sweeper deletes a
 * process's keys by a SCAN of `<prefix><pid>:*` before it deletes its rows.
 *
 * State: one client — unconnected → connecting (at the first call; a failed connect gives up and
 * the next call connects anew) → connected; once connected, a lost connection is re-made in the
 * background while calls fail at once with `state.unavailable` (no offline queue); closed → calls
 * fail with `engine.closed`.
 */
import { createClient } from '@redis/client';
import { ActError, errorMessage } from '../../engine/errors.ts';
import type { ProcessState } from './types.ts';

type Client = ReturnType<typeof createClient>;

/** Glob characters of SCAN's MATCH, escaped so a pid matches only itself. */
function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** The URL without its password. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}

export class RedisState implements ProcessState {
  readonly where = 'redis';
  private readonly client: Client;
  private connecting: Promise<unknown> | null = null;
  private connected = false;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
  ) {
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 5000,
        // before the first connection: give up (the call fails, the next one tries again)
        reconnectStrategy: (retries, cause) => (this.connected ? Math.min(100 * 2 ** retries, 5000) : cause),
      },
    });
    this.client.on('ready', () => (this.connected = true));
    // errors reach the calls that meet them; the client's own event must have a listener
    this.client.on('error', () => undefined);
  }

  async get(pid: string, key: string): Promise<unknown> {
    const text = await this.call(() => this.client.get(this.keyOf(pid, key)));
    if (text === null || text === undefined) return null;
    try {
      return JSON.parse(String(text)) as unknown;
    } catch {
      return String(text); // written by something other than a state act: its text as it is
    }
  }

  async set(pid: string, key: string, value: unknown): Promise<void> {
    await this.call(() => this.client.set(this.keyOf(pid, key), JSON.stringify(value ?? null)));
  }

  async removeProcess(pid: string): Promise<void> {
    await this.call(async () => {
      for await (const keys of this.client.scanIterator({ MATCH: `${globLiteral(this.keyOf(pid, ''))}*`, COUNT: 500 })) {
        if (keys.length > 0) await this.client.unlink(keys);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    if (this.client.isOpen) await this.client.close().catch(() => this.client.destroy());
  }

  private keyOf(pid: string, key: string): string {
    return `${this.prefix}${pid}:${key}`;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw new ActError('engine.closed', 'the engine is shutting down');
    try {
      if (!this.client.isOpen) this.connecting ??= this.client.connect().finally(() => (this.connecting = null));
      if (this.connecting) await this.connecting;
      return await work();
    } catch (err) {
      throw new ActError('state.unavailable', `the state store (Redis at ${redacted(this.url)}) failed: ${errorMessage(err)}; check that it runs, or unset ACTS_STATE_REDIS_URL to keep state in the database`);
    }
  }
}
