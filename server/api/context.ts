/**
 * The per-request context of the API: who calls (session cookie or bearer token, resolved once
 * through `Auth`), whether the CSRF header came along, the client address (client-address.ts),
 * the `Idempotency-Key` header (process starts and trigger fires), and a way to set the session
 * cookie on the response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit/types.ts';
import type { Auth, Caller } from '../auth/types.ts';
import type { DraftBook } from '../drafts/index.ts';
import type { Engine } from '../runtime/engine.ts';
import type { SecretBook } from '../secrets/index.ts';
import { clientAddress } from './client-address.ts';
import type { InboxTaskFeed } from './live/inbox-task-feed.ts';

export const SESSION_COOKIE = 'acts_session';
/** Mutations authenticated by cookie must carry this header with value `1` (see trpc.ts). */
export const CSRF_HEADER = 'x-acts-csrf';
/** A start or trigger fire may carry its idempotency key in this header (or in its input). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What every procedure may use; built once per server. */
export interface ApiServices {
  /** The engine; the API reads the store only through its read model (`engine.reads`). */
  engine: Engine;
  auth: Auth;
  audit: AuditLog;
  /** Designers' drafts (server/drafts). */
  drafts: DraftBook;
  /** The project's secrets (server/secrets); the engine reads the same book. */
  secrets: SecretBook;
  /** Tells the inbox rooms that a task changed hands or got a comment (live/inbox-task-feed.ts); absent: no one listens. */
  inboxFeed?: InboxTaskFeed;
  log: Logger;
  /** Set the `Secure` attribute on the session cookie (serve behind https). */
  secureCookie: boolean;
  /** Reverse proxies in front of the server whose `X-Forwarded-For` entries are trusted (0: none; see client-address.ts). */
  trustProxy: number;
}

export interface ApiContext {
  services: ApiServices;
  caller: Caller | null;
  /** The session token of the cookie, if one was sent. */
  sessionToken: string | null;
  csrfHeader: boolean;
  /** The `Idempotency-Key` header, if one was sent (start-key.ts). */
  idempotencyKey: string | null;
  ip: string;
  setSessionCookie(token: string, expires: number): void;
  clearSessionCookie(): void;
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/** The session token of a `Cookie` header, or null. */
export function sessionFromCookies(header: string | undefined): string | null {
  if (!header) return null;
  return parseCookie(header)[SESSION_COOKIE] || null;
}

/** The caller of a bearer token (preferred) or session token; null when neither is valid. */
export async function resolveCaller(auth: Auth, bearer: string | null, session: string | null): Promise<Caller | null> {
  if (bearer) return auth.fromToken(bearer);
  if (session) return auth.fromSession(session);
  return null;
}

function appendCookie(res: ServerResponse, cookie: string): void {
  const prev = res.getHeader('set-cookie');
  const list = Array.isArray(prev) ? prev : typeof prev === 'string' ? [prev] : [];
  res.setHeader('set-cookie', [...list, cookie]);
}

/** The session cookie's attributes besides its value and lifetime. */
const cookieBase = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/', secure });

/**
 * The context's `setSessionCookie` (returned, not written in createContext's literal: under tsx
 * the build names every function written as a property, a `defineProperty` each time one is
 * made — per call there).
 */
function sessionCookieSetter(res: ServerResponse, secure: boolean): ApiContext['setSessionCookie'] {
  return (token, expires) => appendCookie(res, stringifySetCookie({ name: SESSION_COOKIE, value: token, expires: new Date(expires), ...cookieBase(secure) }));
}

/** The context's `clearSessionCookie` (see sessionCookieSetter). */
function sessionCookieClearer(res: ServerResponse, secure: boolean): ApiContext['clearSessionCookie'] {
  return () => appendCookie(res, stringifySetCookie({ name: SESSION_COOKIE, value: '', maxAge: 0, ...cookieBase(secure) }));
}

export async function createContext(services: ApiServices, req: IncomingMessage, res: ServerResponse): Promise<ApiContext> {
  const sessionToken = sessionFromCookies(req.headers.cookie);
  const caller = await resolveCaller(services.auth, bearerToken(req.headers.authorization), sessionToken);
  return {
    services,
    caller,
    sessionToken,
    csrfHeader: req.headers[CSRF_HEADER] === '1',
    idempotencyKey: typeof req.headers[IDEMPOTENCY_HEADER] === 'string' ? req.headers[IDEMPOTENCY_HEADER] : null,
    ip: clientAddress(req, services.trustProxy),
    setSessionCookie: sessionCookieSetter(res, services.secureCookie),
    clearSessionCookie: sessionCookieClearer(res, services.secureCookie),
  };
}
