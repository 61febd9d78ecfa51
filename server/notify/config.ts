/**
 * The e-mail settings of inbox notifications, from the environment (docs/server.md, "Inbox
 * notifications"): `ACTS_SMTP_URL` turns them on (unset: no e-mail is sent, and the server says so
 * once at start); `ACTS_MAIL_FROM`, `ACTS_PUBLIC_URL` (the base of the links in the mail),
 * `ACTS_MAIL_LINK_KEY` (the HMAC key of the one-click links; unset: derived from
 * `ACTS_SECRETS_KEY`; neither: the mail carries no one-click links), `ACTS_MAIL_LINK_HOURS` (how long
 * a link works, default 72) and `ACTS_MAIL_MAX_RECIPIENTS` (per task and kind, default 50).
 * A malformed value stops the start with `config.invalid`.
 */
import { hkdfSync } from 'node:crypto';
import { ActError } from '../engine/errors.ts';
import { parseSecretsKey, SECRETS_KEY_ENV } from '../secrets/key.ts';

export interface MailConfig {
  /** `smtp://[user:pass@]host:port` or `smtps://…` (nodemailer's connection URL). */
  smtpUrl: string;
  /** The From header. */
  from: string;
  /** The server's address as the people who get the mail reach it (no trailing slash). */
  publicUrl: string;
  /** The HMAC key of one-click links; null: the mail says to answer in the studio instead. */
  linkKey: Buffer | null;
  /** How long a one-click link works (ms). */
  linkTtlMs: number;
  /** The most users one task's notification (of one kind) goes to. */
  maxRecipients: number;
}

export const DEFAULT_LINK_HOURS = 72;
export const DEFAULT_MAX_RECIPIENTS = 50;
/** The shortest key `ACTS_MAIL_LINK_KEY` may be (characters). */
export const LINK_KEY_MIN_CHARS = 32;

function invalid(message: string): never {
  throw new ActError('config.invalid', message);
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > max) invalid(`${name} must be a number above 0 and at most ${max}, got '${text}'`);
  return value;
}

function linkKeyOf(env: NodeJS.ProcessEnv): Buffer | null {
  const own = env.ACTS_MAIL_LINK_KEY?.trim();
  if (own) {
    if (own.length < LINK_KEY_MIN_CHARS) invalid(`ACTS_MAIL_LINK_KEY needs at least ${LINK_KEY_MIN_CHARS} characters (make one with: openssl rand -base64 32)`);
    return Buffer.from(own, 'utf8');
  }
  const secrets = parseSecretsKey(env[SECRETS_KEY_ENV]);
  return secrets ? Buffer.from(hkdfSync('sha256', secrets.bytes, Buffer.alloc(0), 'acts mail links', 32)) : null;
}

function publicUrlOf(env: NodeJS.ProcessEnv): string {
  const text = env.ACTS_PUBLIC_URL?.trim() || `http://${env.HOST || '127.0.0.1'}:${env.PORT || 3000}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    invalid(`ACTS_PUBLIC_URL must be the server's address as an http(s) URL (https://acts.example.com), got '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') invalid(`ACTS_PUBLIC_URL must be an http(s) URL, got '${text}'`);
  return url.toString().replace(/\/+$/, '');
}

/** The settings, or null when `ACTS_SMTP_URL` is unset (no e-mail). */
export function mailConfigFrom(env: NodeJS.ProcessEnv): MailConfig | null {
  const smtpUrl = env.ACTS_SMTP_URL?.trim();
  if (!smtpUrl) return null;
  if (!/^smtps?:\/\/[^/]+/.test(smtpUrl)) invalid(`ACTS_SMTP_URL must be smtp://[user:password@]host:port or smtps://…, got '${smtpUrl.replace(/\/\/[^@/]*@/, '//…@')}'`);
  return {
    smtpUrl,
    from: env.ACTS_MAIL_FROM?.trim() || 'acts <acts@localhost>',
    publicUrl: publicUrlOf(env),
    linkKey: linkKeyOf(env),
    linkTtlMs: positive(env, 'ACTS_MAIL_LINK_HOURS', DEFAULT_LINK_HOURS, 24 * 365) * 3_600_000,
    maxRecipients: Math.floor(positive(env, 'ACTS_MAIL_MAX_RECIPIENTS', DEFAULT_MAX_RECIPIENTS, 10_000)),
  };
}
