/**
 * The real server for the API and socket suites: a migrated SQLite file (or a PostgreSQL
 * database), a real engine, `createServer` listening on a free port, real HTTP through
 * @trpc/client and real socket.io-client connections.
 *
 * Auth: `TestAuth` below is an in-test stand-in for server/auth (users with fixed API tokens
 * `tok-<name>`, sessions in a map); the lead switches these suites to the real implementation
 * once it is wired. `TestAudit` keeps entries in memory.
 *
 * State: a started server owns its engine, store and database; `close()` stops them in order.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import type { AuditEntry, AuditLog } from '../../server/audit/types.ts';
import type { Auth, Caller, Role, Session, UserInfo } from '../../server/auth/types.ts';
import type { AppRouter } from '../../server/api/router.ts';
import type { ApiErrorData } from '../../server/api/errors.ts';
import { Engine } from '../../server/engine/engine.ts';
import { ActError } from '../../server/engine/errors.ts';
import { createServer, type ActsServer, type ServerOptions } from '../../server/http/server.ts';
import { openStore, type OpenedStore, type StoreBackend } from '../../server/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

/** Users of every suite; each has the API token `tok-<name>` and the password `pw-<name>`. */
export const USERS: Record<string, Role[]> = {
  admin: ['admin'],
  designer: ['designer'],
  operator: ['operator'],
  viewer: ['viewer'],
  alice: ['operator'],
  bob: ['operator'],
};

/** An in-memory stand-in for server/auth, for tests only. */
export class TestAuth implements Auth {
  private readonly byName = new Map<string, UserInfo>();
  private readonly sessions = new Map<string, Caller>();
  setupDone = true;

  constructor(users: Record<string, Role[]> = USERS) {
    for (const [name, roles] of Object.entries(users)) this.byName.set(name, { id: `u-${name}`, name, roles, disabled: false, create_time: 0, update_time: 0 });
  }

  private caller(user: UserInfo, via: Caller['via']): Caller {
    return { userId: user.id, name: user.name, roles: [...user.roles], via };
  }

  async login(name: string, password: string): Promise<Session> {
    const user = this.byName.get(name);
    if (!user || password !== `pw-${name}`) throw new ActError('auth.invalid', 'wrong user name or password');
    const token = `sess-${name}-${this.sessions.size}`;
    this.sessions.set(token, this.caller(user, 'session'));
    return { token, caller: this.caller(user, 'session'), expires: Date.now() + 3_600_000 };
  }
  async logout(token: string): Promise<void> {
    this.sessions.delete(token);
  }
  async fromSession(token: string): Promise<Caller | null> {
    return this.sessions.get(token) ?? null;
  }
  async fromToken(token: string): Promise<Caller | null> {
    const user = token.startsWith('tok-') ? this.byName.get(token.slice(4)) : undefined;
    return user && !user.disabled ? this.caller(user, 'token') : null;
  }
  async setupNeeded(): Promise<boolean> {
    return !this.setupDone;
  }
  async setup(name: string): Promise<UserInfo> {
    if (this.setupDone) throw new ActError('auth.setup_done', 'the first admin exists');
    this.setupDone = true;
    const user: UserInfo = { id: `u-${name}`, name, roles: ['admin'], disabled: false, create_time: 0, update_time: 0 };
    this.byName.set(name, user);
    return user;
  }
  users = {
    list: async () => [...this.byName.values()],
    get: async (id: string) => [...this.byName.values()].find((u) => u.id === id) ?? Promise.reject(new ActError('user.not_found', id)),
    create: async (): Promise<UserInfo> => Promise.reject(new Error('not in tests')),
    setRoles: async (): Promise<UserInfo> => Promise.reject(new Error('not in tests')),
    setPassword: async (): Promise<void> => Promise.reject(new Error('not in tests')),
    setDisabled: async (): Promise<UserInfo> => Promise.reject(new Error('not in tests')),
  };
  tokens = {
    create: async (): Promise<never> => Promise.reject(new Error('not in tests')),
    list: async () => [],
    revoke: async () => undefined,
  };
}

export class TestAudit implements AuditLog {
  readonly entries: Array<Omit<AuditEntry, 'id' | 'time'>> = [];
  async record(entry: Omit<AuditEntry, 'id' | 'time'>): Promise<void> {
    this.entries.push(entry);
  }
  async query() {
    return { count: 0, rows: [] };
  }
  last(action: string) {
    return [...this.entries].reverse().find((e) => e.action === action);
  }
}

export type ApiClient = ReturnType<typeof apiClient>;

/** A tRPC client over real HTTP; `token` → Bearer, `headers` added as given. */
export function apiClient(url: string, options: { token?: string; headers?: Record<string, string> } = {}) {
  const headers = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/api/trpc`, headers })] });
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
  auth: TestAuth;
  audit: TestAudit;
  /** A client signed in as one of USERS by API token; `anon` for no credentials. */
  as(name: string | 'anon'): ApiClient;
  socket(name: string | 'anon', options?: { transports?: string[] }): Socket;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<Pick<ServerOptions, 'live' | 'scaleOutUrl' | 'secureCookie' | 'log'>> {
  backend?: StoreBackend;
  /** Use this database instead of creating one (several servers on one PostgreSQL). */
  database?: TestDatabase;
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const owned = options.database ? undefined : await createTestDatabase(options.backend ?? 'sqlite');
  const db = options.database ?? owned!;
  const store = await openStore(db.url);
  const engine = await Engine.create({ store, autoTick: false, tickIntervalSecs: 1 });
  const auth = new TestAuth();
  const audit = new TestAudit();
  const log = options.log ?? pino({ level: 'silent' });
  const server = await createServer({ engine, store, auth, audit, log, live: options.live, scaleOutUrl: options.scaleOutUrl, secureCookie: options.secureCookie });
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
    as: (name) => apiClient(url, name === 'anon' ? {} : { token: `tok-${name}` }),
    socket: (name, socketOptions = {}) => {
      const socket = openSocket(url, { auth: name === 'anon' ? {} : { token: `tok-${name}` }, transports: socketOptions.transports ?? ['websocket'] });
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
