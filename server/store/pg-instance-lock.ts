/**
 * The instance lock of a PostgreSQL store (Store.acquireInstanceLock): proof that an engine
 * instance's process is alive, which dies with it. A session-level advisory lock
 * (sql/instance-lock.ts) held on a connection of its own: the server drops it when that
 * connection ends, and the kernel ends it when the process dies however it dies (SIGKILL, OOM).
 * No process id is consulted, so a restarted container (PID 1 again) or a reused pid cannot make
 * a dead instance look alive. A host that vanished without closing its connections (power loss)
 * keeps the lock until the server notices (TCP keepalive); its lease lapses long before.
 *
 * States: free → held (`tryAcquire` true) → (the connection dropped) → re-taking (every second,
 * until held again or closed) … → released (`release`). While re-taking, other instances see this
 * one as gone: they may take its processes over, and the write fence keeps it off them.
 */
import pg from 'pg';
import { errorMessage } from '../engine/errors.ts';
import { instanceLockKey, TRY_LOCK_SQL } from './sql/instance-lock.ts';

const RETAKE_MS = 1000;

export class PgInstanceLock {
  private client: pg.Client | null = null;
  private instance: string | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  /** Takes the lock of `instance`; false when another session holds it (or this store holds one already). */
  async tryAcquire(instance: string): Promise<boolean> {
    if (this.instance !== null || this.closed) return false;
    const client = await this.take(instance);
    if (!client) return false;
    this.client = client;
    this.instance = instance;
    return true;
  }

  /** A connection holding the lock of `instance`, or null when another session holds it. */
  private async take(instance: string): Promise<pg.Client | null> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (err) => this.dropped(client, errorMessage(err)));
    client.on('end', () => this.dropped(client, 'the connection ended'));
    try {
      await client.connect();
      const { rows } = await client.query<{ ok: boolean }>(TRY_LOCK_SQL, [instanceLockKey(instance).toString()]);
      if (rows[0]?.ok) return client;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    await client.end().catch(() => undefined);
    return null;
  }

  private dropped(client: pg.Client, why: string): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.onError(`the instance lock of engine instance ${this.instance} was lost (${why}); taking it again`);
    this.retake();
  }

  private retake(): void {
    const instance = this.instance;
    if (instance === null || this.closed) return;
    setTimeout(async () => {
      if (this.closed || this.client) return;
      try {
        const client = await this.take(instance);
        if (this.closed) await client?.end().catch(() => undefined);
        else if (client) this.client = client;
        else {
          this.onError(`the instance lock of engine instance ${instance} is held by another session (an engine with the same instance id started meanwhile)`);
          this.retake();
        }
      } catch (err) {
        this.onError(`taking the instance lock of engine instance ${instance} again failed: ${errorMessage(err)}`);
        this.retake();
      }
    }, RETAKE_MS).unref();
  }

  /** Gives the lock back (ends its connection). */
  async release(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.instance = null;
    await client?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }
}
