/**
 * The tRPC client of the remote commands: the app router's type only (no server code is loaded),
 * one HTTP request per call with the bearer token, a per-request timeout, and a check that the
 * answer is JSON (anything else is not an acts API: a wrong URL, a proxy page).
 */
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '../../api/router.ts';
import type { Connection } from './connection.ts';

export type ApiClient = TRPCClient<AppRouter>;

/** Thrown by the fetch wrapper when the server answered something other than JSON. */
export class NotAnApiResponse extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status} without a JSON body`);
    this.name = 'NotAnApiResponse';
  }
}

function checkedFetch(timeoutMs: number) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(input, { ...init, signal });
    if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel();
      throw new NotAnApiResponse(response.status);
    }
    return response;
  };
}

/** A client of the server's app router for one connection (token and timeout). */
export function createApiClient(connection: Connection): ApiClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: connection.endpoint,
        headers: { authorization: `Bearer ${connection.token}`, 'user-agent': 'acts-cli' },
        fetch: checkedFetch(connection.requestTimeoutMs),
      }),
    ],
  });
}
