/**
 * Turns whatever a remote call threw into a RemoteFailure: the server's error `data.code`
 * passes through; network failures (and a gateway's 502/503/504 page) become `server.unreachable`
 * naming the URL; another answer that is not the acts API becomes `server.bad_response`.
 */
import { NotAnApiResponse } from './client.ts';
import type { Connection } from './connection.ts';
import { RemoteFailure } from './failure.ts';

/** Low-level network error codes, said in words. */
const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running, on this port?)',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out connecting',
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  EPROTO: 'TLS handshake failed (if the server speaks plain http, use http://)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed (if the server speaks plain http, use http://)',
};

interface ApiErrorData {
  code?: unknown;
  message?: unknown;
  details?: unknown;
}

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let c = err; c !== undefined && c !== null && chain.length < 8; c = (c as { cause?: unknown }).cause) chain.push(c);
  return chain;
}

function networkReason(chain: unknown[], connection: Connection): string | undefined {
  for (const c of chain) {
    const e = c as { name?: string; code?: unknown; message?: string };
    if (e.name === 'TimeoutError') return `no answer within ${connection.requestTimeoutMs / 1000} s (--request-timeout)`;
    if (typeof e.code === 'string' && NETWORK[e.code]) return NETWORK[e.code];
    if (typeof e.code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(e.code)) {
      return `its TLS certificate is not trusted (${e.code}); for a private CA set NODE_EXTRA_CA_CERTS`;
    }
    if (typeof e.code === 'string' && /SSL|TLS/.test(e.code)) return `TLS failed (${e.code})`;
  }
  const fetchFailed = chain.some((c) => c instanceof TypeError && (c as Error).message === 'fetch failed');
  if (!fetchFailed) return undefined;
  const deepest = chain[chain.length - 1] as Error;
  return deepest?.message && deepest.message !== 'fetch failed' ? deepest.message.replace(/\s+/g, ' ').trim() : 'the request failed';
}

/** The RemoteFailure a failed call stands for (`connection` is undefined before one was resolved). */
export function translate(err: unknown, connection: Connection | undefined): RemoteFailure {
  if (err instanceof RemoteFailure) return err;
  if (!connection) return new RemoteFailure('internal', `unexpected failure: ${(err as Error)?.message ?? String(err)}`);
  const chain = causes(err);
  const data = (err as { data?: ApiErrorData } | null)?.data;
  if (data && typeof data.code === 'string') {
    if (data.code === 'auth.required') {
      return new RemoteFailure(
        'auth.required',
        `the server at ${connection.display} did not accept the API token (unknown, revoked, or its user is disabled); check --token or ACTS_TOKEN`,
      );
    }
    return new RemoteFailure(data.code, typeof data.message === 'string' ? data.message : data.code, data.details);
  }
  const notApi = chain.find((c): c is NotAnApiResponse => c instanceof NotAnApiResponse);
  if (notApi && [502, 503, 504].includes(notApi.status)) {
    const reason = `HTTP ${notApi.status} from a proxy or gateway (is the acts server behind it running?)`;
    return new RemoteFailure('server.unreachable', `cannot reach the acts server at ${connection.display}: ${reason}`);
  }
  if (notApi) {
    return new RemoteFailure(
      'server.bad_response',
      `${connection.display} answered HTTP ${notApi.status}, not the acts API; --server should be the base URL of an acts server (e.g. http://localhost:3000)`,
    );
  }
  const reason = networkReason(chain, connection);
  if (reason) return new RemoteFailure('server.unreachable', `cannot reach the acts server at ${connection.display}: ${reason}`);
  const status = (err as { meta?: { response?: { status?: number } } } | null)?.meta?.response?.status;
  if (status !== undefined) {
    return new RemoteFailure('server.bad_response', `${connection.display} answered HTTP ${status} without an acts error code`);
  }
  return new RemoteFailure('internal', `unexpected failure talking to ${connection.display}: ${(err as Error)?.message ?? String(err)}`);
}
