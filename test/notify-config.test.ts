/** The e-mail settings from the environment (server/notify/config.ts): off without ACTS_SMTP_URL, the defaults, the link key, and each malformed value refused with `config.invalid`. */
import { describe, expect, it } from 'vitest';
import { mailConfigFrom } from '../server/notify/config.ts';

const code = (env: NodeJS.ProcessEnv) => {
  try {
    mailConfigFrom(env);
    return 'accepted';
  } catch (err) {
    return (err as { code?: string }).code;
  }
};
const KEY = 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';

describe('mailConfigFrom', () => {
  it('is off without ACTS_SMTP_URL', () => {
    expect(mailConfigFrom({})).toBeNull();
    expect(mailConfigFrom({ ACTS_SMTP_URL: '  ' })).toBeNull();
  });

  it('has defaults; the link key is its own, else derived from ACTS_SECRETS_KEY, else none', () => {
    const c = mailConfigFrom({ ACTS_SMTP_URL: 'smtp://127.0.0.1:2525', PORT: '4000' })!;
    expect(c).toMatchObject({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'acts <acts@localhost>', publicUrl: 'http://127.0.0.1:4000', linkKey: null, linkTtlMs: 72 * 3_600_000, maxRecipients: 50 });
    const derived = mailConfigFrom({ ACTS_SMTP_URL: 'smtps://u:p@mail.example.com', ACTS_SECRETS_KEY: KEY })!.linkKey!;
    expect(derived).toHaveLength(32);
    expect(derived.equals(Buffer.from(KEY, 'base64'))).toBe(false);
    expect(mailConfigFrom({ ACTS_SMTP_URL: 'smtps://mail.example.com', ACTS_SECRETS_KEY: KEY })!.linkKey!.equals(derived)).toBe(true);
    const own = mailConfigFrom({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_MAIL_LINK_KEY: 'x'.repeat(32), ACTS_SECRETS_KEY: KEY, ACTS_PUBLIC_URL: 'https://acts.example.com/', ACTS_MAIL_LINK_HOURS: '0.5', ACTS_MAIL_MAX_RECIPIENTS: '3' })!;
    expect(own).toMatchObject({ linkKey: Buffer.from('x'.repeat(32)), publicUrl: 'https://acts.example.com', linkTtlMs: 1_800_000, maxRecipients: 3 });
  });

  it('refuses malformed values with config.invalid', () => {
    expect(code({ ACTS_SMTP_URL: 'mail.example.com:25' })).toBe('config.invalid');
    expect(code({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_MAIL_LINK_KEY: 'short' })).toBe('config.invalid');
    expect(code({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_PUBLIC_URL: 'ftp://x' })).toBe('config.invalid');
    expect(code({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_PUBLIC_URL: 'not a url' })).toBe('config.invalid');
    expect(code({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_MAIL_LINK_HOURS: '0' })).toBe('config.invalid');
    expect(code({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_MAIL_MAX_RECIPIENTS: 'many' })).toBe('config.invalid');
    expect(code({ ACTS_SMTP_URL: 'smtp://h:25', ACTS_SECRETS_KEY: 'bad' })).toBe('secrets.bad_key');
  });
});
