/**
 * Secrets never reach the log (server/http/logger.ts): the real pino logger writing to a stream,
 * lines read back as JSON. Passwords, tokens, cookies and authorization headers are censored in a
 * line's fields and two levels of objects below them (arrays too), and in a child logger's
 * bindings; the objects logged are left as they were.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../server/http/logger.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ level: 'debug', destination }) };
}

const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('log redaction', () => {
  it('censors secret keys at the top, one and two levels below, in arrays, and in bindings', async () => {
    const { lines, log } = capture();
    const fields = {
      password: 'p1',
      user: 'alice',
      headers: { authorization: 'Bearer t1', cookie: 'acts_session=s1', accept: 'json' },
      req: { body: { token: 't2', name: 'x' }, 'set-cookie': 'c' },
      list: [{ sessionToken: 's2', ok: 1 }],
    };
    log.info(fields, 'one');
    log.child({ token: 't3', component: 'api' }).warn({ n: 1 }, 'two');
    await flushed();
    expect(lines[0]).toMatchObject({
      msg: 'one',
      password: '[redacted]',
      user: 'alice',
      headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'json' },
      req: { body: { token: '[redacted]', name: 'x' }, 'set-cookie': '[redacted]' },
      list: [{ sessionToken: '[redacted]', ok: 1 }],
    });
    expect(lines[1]).toMatchObject({ msg: 'two', token: '[redacted]', component: 'api', n: 1 });
    expect(JSON.stringify(lines)).not.toMatch(/p1|t1|t2|t3|s1|s2/);
    expect(fields.headers.authorization).toBe('Bearer t1');
    expect(fields.req.body.token).toBe('t2');
  });

  it('logs a line without secrets as it is, errors with their message', async () => {
    const { lines, log } = capture();
    log.error({ err: new Error('boom'), path: 'auth.me' }, 'failed');
    await flushed();
    expect(lines[0]).toMatchObject({ msg: 'failed', path: 'auth.me', err: { message: 'boom', type: 'Error' } });
  });
});
