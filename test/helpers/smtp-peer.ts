/**
 * A real SMTP server for the notification suites (smtp-server, from the nodemailer project) on
 * 127.0.0.1 and a free port: no TLS, no AUTH; it keeps every message it accepted (recipients,
 * subject, the decoded text) and can refuse the next `n` messages with a temporary error (451).
 * `waitFor` waits for messages (real time, no sleeps); `links` reads a message's one-click links.
 *
 * State: the messages received, the refusals left; listening → closed.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The body, quoted-printable soft breaks and escapes decoded (good enough to find links). */
  body: string;
}

/** Quoted-printable to text (ASCII links and words; the tests need no more). */
function decodeQp(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function parse(raw: string, to: string[]): ReceivedMail {
  const [head] = raw.split(/\r?\n\r?\n/);
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';
  return { to, subject, body: decodeQp(raw) };
}

export interface SmtpPeer {
  url: string;
  mails: ReceivedMail[];
  /** Refuse the next `n` messages (451, try again later). */
  refuseNext(n: number): void;
  waitFor(count: number, what: string, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** The one-click links of a mail (their URLs by the label of the answer each gives). */
export function linksOf(mail: ReceivedMail): Map<string, string> {
  const links = new Map<string, string>();
  for (const m of mail.body.matchAll(/^([^:\n<>]+): (https?:\/\/\S+\/mail\/act\/\S+)$/gm)) links.set(m[1].trim(), m[2]);
  return links;
}

/** Listens on `port` (0: a free one). */
export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  let refusals = 0;
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals--;
          return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        }
        mails.push(parse(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address)));
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mails,
    refuseNext: (n) => {
      refusals = n;
    },
    waitFor: (count, what, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mails.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${count} mails (${what}); got ${mails.length}: ${mails.map((m) => m.subject).join(' | ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
