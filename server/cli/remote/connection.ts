/**
 * Where the remote commands connect and as whom: `--server` (or `ACTS_SERVER`), `--token` (or
 * `ACTS_TOKEN`) and `--request-timeout`. Missing or malformed values are usage errors. The token
 * is never part of a message; the URL is shown without any user:password part.
 */
import { usage } from './failure.ts';

/** The connection flags as commander parsed them. */
export interface ConnectionFlags {
  server?: string;
  token?: string;
  requestTimeout?: string;
}

/** A resolved connection. */
export interface Connection {
  /** The tRPC endpoint, `<server>/api/trpc`. */
  endpoint: string;
  /** The server URL as messages show it (no credentials). */
  display: string;
  token: string;
  requestTimeoutMs: number;
}

export const DEFAULT_REQUEST_TIMEOUT_SECS = 30;

/** A number of seconds > 0 from a flag. */
export function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw usage(`${flag} must be a number of seconds above 0, got '${value}'`);
  return n;
}

function serverUrl(raw: string): { endpoint: string; display: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usage(`--server '${raw}' is not a URL; expected e.g. http://localhost:3000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usage(`--server must be an http:// or https:// URL, got '${url.protocol}'`);
  }
  if (url.username || url.password) throw usage('--server must not contain a user name or password; authenticate with --token');
  // The base URL of the server; a pasted API endpoint is accepted too.
  const base = url.pathname.replace(/\/+$/, '').replace(/\/api\/trpc$/, '');
  const display = `${url.protocol}//${url.host}${base}`;
  url.pathname = `${base}/api/trpc`;
  url.search = '';
  url.hash = '';
  return { endpoint: url.toString(), display };
}

/** Resolves the flags (then the environment) into a connection, or throws a usage error. */
export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const server = flags.server ?? env.ACTS_SERVER;
  if (!server?.trim()) {
    throw usage('no server: pass --server <url> or set ACTS_SERVER (e.g. ACTS_SERVER=http://localhost:3000)');
  }
  const token = (flags.token ?? env.ACTS_TOKEN ?? '').trim();
  if (!token) {
    throw usage('no API token: pass --token <token> or set ACTS_TOKEN (an acts_… token of a user with the needed role)');
  }
  if (/\s/.test(token)) throw usage('the API token contains whitespace; pass the token alone (acts_…)');
  const requestTimeoutMs = seconds(flags.requestTimeout ?? String(DEFAULT_REQUEST_TIMEOUT_SECS), '--request-timeout') * 1000;
  return { ...serverUrl(server.trim()), token, requestTimeoutMs };
}
