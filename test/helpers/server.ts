/**
 * The real server for the API and socket suites: a migrated SQLite file (or a PostgreSQL
 * database), a real engine, the real auth (server/auth, with cheap argon2 costs) and audit log
 * (server/audit) on that store, its entries written with the engine's store transactions as the
 * server writes them, `createServer` listening on a free port, real HTTP through @trpc/client and
 * real socket.io-client connections.
 *
 * Users: every name of `USERS` (or of the `users` option) exists with the password
 * `passwordOf(name)` and one API token of its own (`tokens[name]`); `as(name)` and `socket(name)`
 * use it. Servers sharing a database share the users (each creates its own tokens).
 *
 * State: a started server owns its engine, store and database; `close()` stops them in order.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll } from 'vitest';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { engineAuditLog } from '../../server/audit/engine-writes.ts';
import type { AuditEntry, AuditLog } from '../../server/audit/types.ts';
import { createAuth, type AuthOptions } from '../../server/auth/create-auth.ts';
import type { Auth, Role, UserInfo } from '../../server/auth/types.ts';
import type { AppRouter } from '../../server/api/router.ts';
import type { ApiErrorData } from '../../server/api/errors.ts';
import { Engine, type EngineOptions } from '../../server/runtime/engine.ts';
import { createServer, type ActsServer, type ServerOptions } from '../../server/http/server.ts';
import { openStore, type OpenedStore, type StoreBackend } from '../../server/store/open-store.ts';
import { parseSecretsKey, SecretBook } from '../../server/secrets/index.ts';
import { systemClock } from '../../server/engine/clock.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

/** Users of every suite, with their roles. */
export const USERS: Record<string, Role[]> = {
  admin: ['admin'],
  designer: ['designer'],
  operator: ['operator'],
  viewer: ['viewer'],
  alice: ['operator'],
  bob: ['operator'],
};

/** The password of a test user (the real rules want at least 8 characters). */
export const passwordOf = (name: string): string => `pw-${name}-secret`;

/** argon2 costs low enough for suites that hash a few dozen passwords. */
export const CHEAP_HASHING = { memoryCost: 256, timeCost: 1 } as const;

/** The real audit log, plus the newest entry of an action (what most assertions need). */
export interface TestAudit extends AuditLog {
  last(action: string): Promise<AuditEntry | undefined>;
}

function testAudit(store: OpenedStore, engine: Engine): TestAudit {
  const log = engineAuditLog(store, engine);
  return {
    record: (entry) => log.record(entry),
    query: (query) => log.query(query),
    last: async (action) => (await log.query({ action, limit: 1 })).rows[0],
  };
}

/** Creates the users that do not exist yet; returns every one of them by name. */
async function ensureUsers(auth: Auth, users: Record<string, Role[]>): Promise<Record<string, UserInfo>> {
  const byName: Record<string, UserInfo> = Object.fromEntries((await auth.users.list()).map((u) => [u.name, u]));
  for (const [name, roles] of Object.entries(users)) byName[name] ??= await auth.users.create(name, passwordOf(name), roles);
  return byName;
}

export type ApiClient = ReturnType<typeof apiClient>;

/** A tRPC client over real HTTP; `token` → Bearer, `headers` added as given, `fetch` to watch the traffic. */
export function apiClient(url: string, options: { token?: string; headers?: Record<string, string>; fetch?: typeof fetch } = {}) {
  const headers = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/api/trpc`, headers, fetch: options.fetch })] });
}

/** The reply of `rawCall`: status, parsed body, its text, and the `Set-Cookie` header. */
export interface RawReply {
  status: number;
  body: { result?: { data: unknown }; error?: { message: string; data: { code: string; httpStatus: number; details?: unknown } } };
  text: string;
  setCookie: string | null;
}

export interface RawOptions {
  body?: unknown;
  /** Sent as is instead of `body`'s JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** A GET query with `body` as its input (a POST mutation otherwise). */
  query?: boolean;
}

/** One tRPC procedure called by plain `fetch` (to see status codes, cookies and raw bodies). */
export async function rawCall(url: string, procedure: string, options: RawOptions = {}): Promise<RawReply> {
  const target = `${url}/api/trpc/${procedure}${options.query ? `?input=${encodeURIComponent(JSON.stringify(options.body ?? {}))}` : ''}`;
  const res = await fetch(target, {
    method: options.query ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.query ? undefined : (options.rawBody ?? JSON.stringify(options.body ?? {})),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as RawReply['body'], text, setCookie: res.headers.get('set-cookie') };
}

/** The API error `data` of a rejected call (fails the test when the call succeeded). */
export async function apiError(call: Promise<unknown>): Promise<ApiErrorData> {
  try {
    await call;
  } catch (err) {
    if (err instanceof TRPCClientError) return err.data as ApiErrorData;
    throw err;
  }
  throw new Error('expected the call to fail');
}

export interface TestServer {
  url: string;
  server: ActsServer;
  engine: Engine;
  store: OpenedStore;
  auth: Auth;
  audit: TestAudit;
  /** The project's secrets (opened with `secretsKey`, else without a key). */
  secrets: SecretBook;
  /** The test users by name. */
  users: Record<string, UserInfo>;
  /** Each test user's API token secret, by name. */
  tokens: Record<string, string>;
  /** The token of a test user; for any other name a well-formed token nobody holds. */
  tokenOf(name: string): string;
  /** A client signed in as a test user by API token; `anon` for no credentials. */
  as(name: string | 'anon'): ApiClient;
  socket(name: string | 'anon', options?: { transports?: string[] }): Socket;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<Pick<ServerOptions, 'live' | 'scaleOutUrl' | 'secureCookie' | 'trustProxy' | 'log' | 'sessionSweepMs' | 'mail'>> {
  backend?: StoreBackend;
  /** Use this database instead of creating one (several servers on one PostgreSQL). */
  database?: TestDatabase;
  /** The users to create instead of USERS (`{}` leaves the first-admin setup open). */
  users?: Record<string, Role[]>;
  /** Options of the real auth (cheap hashing is the default). */
  auth?: AuthOptions;
  /** Engine options besides the store (default: no auto tick, 1 s ticks). */
  engine?: Omit<EngineOptions, 'store'>;
  /** ACTS_SECRETS_KEY of the server (default: none). */
  secretsKey?: string;
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const owned = options.database ? undefined : await createTestDatabase(options.backend ?? 'sqlite');
  const db = options.database ?? owned!;
  const store = await openStore(db.url);
  const secrets = await SecretBook.open(store, parseSecretsKey(options.secretsKey), systemClock);
  const engine = await Engine.create({ store, autoTick: false, tickIntervalSecs: 1, secrets, ...options.engine });
  const auth = createAuth(store, { passwordHashing: CHEAP_HASHING, ...options.auth });
  const audit = testAudit(store, engine);
  const users = await ensureUsers(auth, options.users ?? USERS);
  const tokens: Record<string, string> = {};
  for (const user of Object.values(users)) tokens[user.name] = (await auth.tokens.create(user.id, 'tests')).token;
  const tokenOf = (name: string) => tokens[name] ?? `acts_nobody-${name}`;
  const log = options.log ?? pino({ level: 'silent' });
  const server = await createServer({ engine, store, auth, audit, secrets, log, live: options.live, scaleOutUrl: options.scaleOutUrl, secureCookie: options.secureCookie, trustProxy: options.trustProxy, sessionSweepMs: options.sessionSweepMs, mail: options.mail });
  const address = await server.listen(0);
  const url = `http://127.0.0.1:${address.port}`;
  const sockets: Socket[] = [];
  return {
    url,
    server,
    engine,
    store,
    auth,
    audit,
    secrets,
    users,
    tokens,
    tokenOf,
    as: (name) => apiClient(url, name === 'anon' ? {} : { token: tokenOf(name) }),
    socket: (name, socketOptions = {}) => {
      const socket = openSocket(url, { auth: name === 'anon' ? {} : { token: tokenOf(name) }, transports: socketOptions.transports ?? ['websocket'] });
      sockets.push(socket);
      return socket;
    },
    close: async () => {
      for (const s of sockets) s.disconnect();
      await server.close();
      await engine.close();
      await owned?.drop();
    },
  };
}

/** Every event a socket received, in order, with waiting helpers (no sleeps). */
export class SocketLog {
  readonly events: Array<{ name: string; payload: Record<string, unknown> }> = [];
  private waiters: Array<() => void> = [];

  constructor(readonly socket: Socket) {
    socket.onAny((name: string, payload: Record<string, unknown>) => {
      this.events.push({ name, payload });
      for (const w of this.waiters.splice(0)) w();
    });
  }

  of(name: string): Array<Record<string, unknown>> {
    return this.events.filter((e) => e.name === name).map((e) => e.payload);
  }

  /** The largest cursor received so far. */
  get cursor(): number {
    return Math.max(0, ...this.events.map((e) => Number(e.payload?.cursor ?? 0)));
  }

  /** Resolves with the first event (already received or future) matching. */
  async waitFor(name: string, match: (p: Record<string, unknown>) => boolean = () => true, timeoutMs = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of(name).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no '${name}' event matched within ${timeoutMs} ms; got ${this.events.map((e) => e.name).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

export interface JoinReply {
  ok: boolean;
  room?: string;
  error?: { code: string; message: string };
}

export function join(socket: Socket, room: string, cursor?: number | null): Promise<JoinReply> {
  return socket.timeout(5000).emitWithAck('join', { room, cursor }) as Promise<JoinReply>;
}

const READY = new WeakMap<Socket, Promise<void>>();

/** A socket.io client (no reconnection) whose connection outcome is recorded from the start. */
export function openSocket(url: string, options: { auth?: Record<string, string>; transports?: string[]; extraHeaders?: Record<string, string> }): Socket {
  const socket = connect(url, { path: '/socket.io', reconnection: false, forceNew: true, transports: ['websocket'], ...options });
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err: Error & { data?: unknown }) => reject(err.data ?? err));
  });
  ready.catch(() => undefined);
  READY.set(socket, ready);
  return socket;
}

/** Resolves once connected; rejects with the connect error's `data` (code, message). */
export function connected(socket: Socket): Promise<void> {
  return READY.get(socket) ?? Promise.reject(new Error('not opened with openSocket'));
}

/** Resolves once the socket is disconnected (at once when it already is). */
export function disconnected(socket: Socket): Promise<void> {
  if (!socket.connected) return Promise.resolve();
  return new Promise((resolve) => socket.once('disconnect', () => resolve()));
}

/** Once the engine is idle: the process as a viewer sees it, and its task `key` waiting for an answer (if one is). */
export async function waitingTask(t: TestServer, pid: string, key: string) {
  await t.engine.idle();
  const detail = await t.as('viewer').processes.get.query({ pid });
  return { detail, task: detail.tasks.find((x) => x.key === key && x.state === 'interrupted') };
}

/** Two servers on one fresh PostgreSQL database, joined for scale-out; `close()` stops both and drops it. */
export interface ServerPair {
  db: TestDatabase;
  a: TestServer;
  b: TestServer;
  close(): Promise<void>;
}

/**
 * Two servers on one PostgreSQL database for a whole test file: started before its tests (then
 * `setUp` runs with them), closed after them.
 */
export function useTwoServersOnPostgres(setUp: (pair: ServerPair) => Promise<void>, options: Pick<StartOptions, 'live'> = {}): void {
  let pair: ServerPair | undefined;
  beforeAll(async () => {
    pair = await twoServersOnPostgres(options);
    await setUp(pair);
  }, 30_000);
  afterAll(async () => {
    await pair?.close();
  });
}

export async function twoServersOnPostgres(options: Pick<StartOptions, 'live'> = {}): Promise<ServerPair> {
  const db = await createTestDatabase('postgresql');
  const a = await startTestServer({ ...options, database: db, scaleOutUrl: db.url });
  const b = await startTestServer({ ...options, database: db, scaleOutUrl: db.url });
  return {
    db,
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
      await db.drop();
    },
  };
}
