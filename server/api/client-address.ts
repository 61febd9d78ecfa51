/**
 * The client address of a request, behind a configured number of trusted reverse proxies
 * (`ACTS_TRUST_PROXY=<n>`), the way Express's `trust proxy = <n>` takes it.
 *
 * Each proxy appends the address it received the request from to `X-Forwarded-For`, so only the
 * right-most entries were written by proxies we trust; everything left of them is the client's
 * own text. The addresses, nearest first, are the socket's peer and then the header's entries
 * from right to left; with `n` trusted hops the client is the one at index `n` (or the farthest
 * one when the chain is shorter). `n = 0` ignores the header.
 */
import type { IncomingMessage } from 'node:http';
import { ActError } from '../engine/errors.ts';

const MAX_HOPS = 100;

/**
 * The hop count of an `ACTS_TRUST_PROXY` value: unset, empty or `0` → 0 (no proxy trusted); a
 * whole number 1…100 → that many trusted proxies. Anything else is `config.invalid`.
 */
export function trustedProxyHops(value: string | undefined): number {
  const text = (value ?? '').trim();
  if (text === '') return 0;
  if (/^\d{1,3}$/.test(text) && Number(text) <= MAX_HOPS) return Number(text);
  throw new ActError(
    'config.invalid',
    `ACTS_TRUST_PROXY must be the number of reverse proxies in front of the server (0 to ${MAX_HOPS}; 1 for one proxy), not '${text}'`,
  );
}

/** The client address of `req` when `hops` proxies in front of the server are trusted. */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const header = req.headers['x-forwarded-for'];
  if (hops <= 0 || typeof header !== 'string') return peer;
  const forwarded = header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const nearestFirst = [peer, ...forwarded.reverse()];
  return nearestFirst[Math.min(hops, nearestFirst.length - 1)];
}
