/**
 * One-click links of notification e-mails: a link is `<public url>/mail/act/<token>`, the token
 * `<payload>.<signature>` — the payload the base64url JSON of the link's id (random), the task
 * (pid, tid), the user it was sent to, the answer it gives and when it expires; the signature the
 * hex HMAC-SHA256 of the payload text under the server's link key (config.ts). Verifying checks the
 * signature in constant time, then the expiry. Pure functions; the use (single, durable) is
 * link-use.ts's.
 */
import { randomBytes } from 'node:crypto';
import { hmac, sameDigest } from '../http/webhooks/signatures.ts';

/** Where links are served (the HTTP dispatcher routes this prefix to link-endpoint.ts). */
export const MAIL_LINKS_BASE = '/mail/act/';

export interface MailLink {
  /** The link's own id: its use is recorded under it (mail_link_uses). */
  id: string;
  pid: string;
  tid: string;
  /** The user name the link answers as. */
  user: string;
  /** The answer: a declared outcome's name, or `approve` / `reject` (link-actions.ts). */
  action: string;
  /** Expiry, epoch ms. */
  exp: number;
}

export type LinkVerdict = { ok: true; link: MailLink } | { ok: false; code: 'link.bad_signature' | 'link.expired'; link?: MailLink };

const MAX_TOKEN_CHARS = 4096;

/** A fresh link to sign (its id is 16 random bytes). */
export function newLink(fields: Omit<MailLink, 'id'>): MailLink {
  return { id: randomBytes(16).toString('base64url'), ...fields };
}

export function signLink(key: Buffer, link: MailLink): string {
  const payload = Buffer.from(JSON.stringify(link), 'utf8').toString('base64url');
  return `${payload}.${hmac(key, payload).toString('hex')}`;
}

function parsed(payload: string): MailLink | null {
  try {
    const v = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const texts = ['id', 'pid', 'tid', 'user', 'action'].every((k) => typeof v[k] === 'string' && v[k] !== '');
    return texts && typeof v.exp === 'number' ? (v as unknown as MailLink) : null;
  } catch {
    return null;
  }
}

/** The link of a token signed with `key`, if the signature holds and it has not expired at `now`. */
export function verifyLink(key: Buffer, token: string, now: number): LinkVerdict {
  const dot = token.lastIndexOf('.');
  if (token.length > MAX_TOKEN_CHARS || dot <= 0) return { ok: false, code: 'link.bad_signature' };
  const payload = token.slice(0, dot);
  if (!sameDigest(token.slice(dot + 1), hmac(key, payload))) return { ok: false, code: 'link.bad_signature' };
  const link = parsed(payload);
  if (!link) return { ok: false, code: 'link.bad_signature' };
  if (now >= link.exp) return { ok: false, code: 'link.expired', link };
  return { ok: true, link };
}
