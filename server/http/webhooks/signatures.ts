/**
 * Signed webhook deliveries: HMAC-SHA256 of the raw body with a stored secret, in the formats
 * senders use — `github` (`X-Hub-Signature-256: sha256=<hex>` over the body), `stripe`
 * (`Stripe-Signature: t=<unix secs>,v1=<hex>` over `<t>.<body>`, the time within the replay
 * window) and `generic` (the Stripe scheme in a header of the trigger's choosing, default
 * `X-Acts-Signature`). Each names the delivery, so a repeat starts nothing: GitHub's
 * `X-GitHub-Delivery`, a Stripe event's `id`, else an `Idempotency-Key` header, else the signature
 * itself (a replayed request carries the same one). Pure functions; comparisons in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import type { SignaturePreset } from '../../../vocab/webhooks.ts';

export interface SignedDelivery {
  preset: SignaturePreset;
  secret: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
  /** The header of a `generic` signature (lower case). */
  header: string;
  /** Now, epoch ms; and how far a signed time may be from it. */
  now: number;
  toleranceSecs: number;
}

export type Verdict =
  | { ok: true; delivery: string; event: string | null }
  | { ok: false; code: 'hook.no_signature' | 'hook.bad_signature' | 'hook.stale'; message: string };

/** HMAC-SHA256 of the parts, in order (also the one-click links of server/notify). */
export const hmac = (secret: string | Buffer, ...parts: Array<string | Buffer>) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Whether hex text `given` is the digest `expected` (constant time for digests of the same length). */
export function sameDigest(given: string, expected: Buffer): boolean {
  if (!/^[0-9a-f]+$/i.test(given) || given.length !== expected.length * 2) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

const headerOf = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** `t=…,v1=…,v1=…` → the time and every v1 signature. */
function timedSignature(text: string): { t: number; v1: string[] } | null {
  let t = NaN;
  const v1: string[] = [];
  for (const part of text.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't') t = Number(v);
    else if (k === 'v1' && v) v1.push(v);
  }
  return Number.isFinite(t) && v1.length > 0 ? { t, v1 } : null;
}

function verifyTimed(d: SignedDelivery, header: string, sender: string): Verdict {
  const text = headerOf(d.headers, header);
  if (!text) return { ok: false, code: 'hook.no_signature', message: `the request has no ${header} header: sign it as ${sender} does (t=<unix seconds>,v1=<HMAC-SHA256 hex of "<t>.<body>">)` };
  const parsed = timedSignature(text);
  if (!parsed) return { ok: false, code: 'hook.bad_signature', message: `the ${header} header is not of the form t=<unix seconds>,v1=<hex>` };
  const expected = hmac(d.secret, `${parsed.t}.`, d.body);
  if (!parsed.v1.some((sig) => sameDigest(sig, expected))) return { ok: false, code: 'hook.bad_signature', message: `the ${header} signature does not match the body: check the secret the sender signs with` };
  const skewSecs = Math.abs(d.now / 1000 - parsed.t);
  if (skewSecs > d.toleranceSecs) return { ok: false, code: 'hook.stale', message: `the signed time is ${Math.round(skewSecs)} s away from now (at most ${d.toleranceSecs} s): a replayed or delayed delivery is refused` };
  return { ok: true, delivery: '', event: null };
}

/** A text field of a JSON body (a Stripe event's `id`, `type`), if any. */
function bodyField(body: Buffer, field: 'id' | 'type'): string | undefined {
  try {
    const value = (JSON.parse(body.toString('utf8')) as Record<string, unknown>)[field];
    return typeof value === 'string' && value ? value : undefined;
  } catch {
    return undefined;
  }
}

export function verifyDelivery(d: SignedDelivery): Verdict {
  if (d.preset === 'github') {
    const text = headerOf(d.headers, 'x-hub-signature-256');
    if (!text) return { ok: false, code: 'hook.no_signature', message: 'the request has no X-Hub-Signature-256 header: set the secret of the GitHub webhook' };
    if (!text.startsWith('sha256=') || !sameDigest(text.slice(7), hmac(d.secret, d.body))) {
      return { ok: false, code: 'hook.bad_signature', message: 'the X-Hub-Signature-256 signature does not match the body: the webhook secret on GitHub must be the stored one' };
    }
    return { ok: true, delivery: headerOf(d.headers, 'x-github-delivery') ?? text, event: headerOf(d.headers, 'x-github-event') ?? null };
  }
  const header = d.preset === 'stripe' ? 'stripe-signature' : d.header;
  const verdict = verifyTimed(d, header, d.preset === 'stripe' ? 'Stripe' : 'the generic scheme');
  if (!verdict.ok) return verdict;
  const delivery = (d.preset === 'stripe' ? bodyField(d.body, 'id') : headerOf(d.headers, 'idempotency-key')) ?? headerOf(d.headers, header)!;
  const event = (d.preset === 'stripe' ? bodyField(d.body, 'type') : headerOf(d.headers, 'x-acts-event')) ?? null;
  return { ok: true, delivery, event };
}

/** A signature as the generic scheme (and Stripe) writes it, for senders and tests. */
export function signTimed(secret: string, body: string | Buffer, atSecs: number): string {
  return `t=${atSecs},v1=${hmac(secret, `${atSecs}.`, body).toString('hex')}`;
}

/** GitHub's `X-Hub-Signature-256` value of `body`. */
export function signGithub(secret: string, body: string | Buffer): string {
  return `sha256=${hmac(secret, body).toString('hex')}`;
}
