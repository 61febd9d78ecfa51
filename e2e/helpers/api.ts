/**
 * The API as e2e tests use it to set the scene (users, models, runs) without clicking: a typed
 * tRPC client signed in as someone, and the session cookie to hand to a browser context.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../server/api/router.ts';
import { ADMIN, BASE_URL } from './env.ts';

export type Api = ReturnType<typeof createTRPCClient<AppRouter>>;

export interface Session {
  name: string;
  /** `acts_session=<token>`, for a Cookie header. */
  cookie: string;
  token: string;
  api: Api;
}

/** Signs in through `auth.login` (of the shared server, or the one at `baseUrl`) and returns a client that calls as that user. */
export async function signInApi(name: string, password: string, baseUrl: string = BASE_URL): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/trpc/auth.login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-acts-csrf': '1' },
    body: JSON.stringify({ name, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${name} failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('acts_session='))?.split(';')[0];
  if (!cookie) throw new Error(`sign-in of ${name} set no session cookie`);
  const api = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/api/trpc`, headers: () => ({ cookie, 'x-acts-csrf': '1' }) })],
  });
  return { name, cookie, token: cookie.slice('acts_session='.length), api };
}

let admin: Promise<Session> | null = null;

/** The admin's API session (one per worker). */
export function adminSession(): Promise<Session> {
  admin ??= signInApi(ADMIN.name, ADMIN.password);
  return admin;
}
