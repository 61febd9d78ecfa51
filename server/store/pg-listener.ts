/**
 * PostgreSQL LISTEN for Store.listen: one dedicated connection per store, opened on the first
 * listen, re-opened after it drops (with a short back-off), closed with the store.
 *
 * States: idle (no connection) → connecting → listening (topics subscribed) → (error) →
 * connecting … → closed. Notifications that arrive while reconnecting are lost; listeners lose
 * nothing that matters because every instance also polls on its timer tick (wake-ups only
 * shorten the wait).
 */
import pg from 'pg';

type Handler = (payload: string) => void;

const RECONNECT_MS = 1000;

export class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(
    private readonly url: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  async listen(topic: string, fn: Handler): Promise<() => Promise<void>> {
    let set = this.handlers.get(topic);
    const fresh = !set;
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(fn);
    await this.connect();
    if (fresh && this.client) await this.client.query(`LISTEN ${pg.escapeIdentifier(topic)}`);
    return async () => {
      set.delete(fn);
      if (set.size > 0 || this.handlers.get(topic) !== set) return;
      this.handlers.delete(topic);
      await this.client?.query(`UNLISTEN ${pg.escapeIdentifier(topic)}`).catch(() => undefined);
    };
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (n) => {
        for (const fn of this.handlers.get(n.channel) ?? []) fn(n.payload ?? '');
      });
      client.on('error', (err) => this.dropped(client, err));
      client.on('end', () => this.dropped(client, new Error('the LISTEN connection ended')));
      await client.connect();
      for (const topic of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(topic)}`);
      this.client = client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private dropped(client: pg.Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.closed) return;
    this.onError(err);
    setTimeout(() => void this.connect().catch((e) => this.dropped(client, e)), RECONNECT_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
