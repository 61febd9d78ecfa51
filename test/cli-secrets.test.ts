/**
 * `acts secrets list | set | delete` run for real (`node bin/acts.mjs` as a child process)
 * against a test server with a key: the value comes from stdin or --from-env and is never
 * printed; lines are JSON; a non-admin gets auth.forbidden (exit 5), a bad name input.invalid
 * (exit 2), a missing secret secret.not_found (exit 6).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VALUE = `sv-${crypto.randomBytes(16).toString('hex')}`;

interface Result {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  error?: { code: string; message: string };
  text: string;
}

let t: TestServer;

/** Runs `acts …args` as `who`, with `stdin` written to it. */
function acts(who: string, args: string[], stdin = '', env: Record<string, string> = {}): Promise<Result> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ACTS_')));
  const child = spawn(process.execPath, ['bin/acts.mjs', ...args, '--server', t.url], { cwd: ROOT, env: { ...base, ACTS_TOKEN: t.tokenOf(who), ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  child.stdin.end(stdin);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const last = err.trim().split('\n').pop() ?? '';
      resolve({
        code,
        lines: out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>),
        error: last.startsWith('{') ? (JSON.parse(last) as Result['error']) : undefined,
        text: out + err,
      });
    }),
  );
}

beforeAll(async () => {
  t = await startTestServer({ secretsKey: crypto.randomBytes(32).toString('hex') });
});
afterAll(() => t?.close());

describe('acts secrets', () => {
  it('sets from stdin and from --from-env, lists names, deletes; never prints a value', { timeout: 30_000 }, async () => {
    const set = await acts('admin', ['secrets', 'set', 'API_TOKEN'], `${VALUE}\n`);
    expect(set.code, set.text).toBe(0);
    expect(set.lines).toEqual([{ name: 'API_TOKEN', created: true }]);
    expect(t.secrets.get('API_TOKEN')).toBe(VALUE);
    const again = await acts('admin', ['secrets', 'set', 'OTHER', '--from-env', 'MY_VALUE'], '', { MY_VALUE: `${VALUE}-env` });
    expect(again.lines).toEqual([{ name: 'OTHER', created: true }]);
    expect(t.secrets.get('OTHER')).toBe(`${VALUE}-env`);
    const list = await acts('admin', ['secrets', 'list']);
    expect(list.lines.map((l) => [l.name, l.update_by])).toEqual([['API_TOKEN', 'admin'], ['OTHER', 'admin']]);
    const deleted = await acts('admin', ['secrets', 'delete', 'OTHER']);
    expect(deleted.lines).toEqual([{ name: 'OTHER', deleted: true }]);
    for (const r of [set, again, list, deleted]) expect(r.text).not.toContain(VALUE);
  });

  it('coded failures and exit codes', { timeout: 30_000 }, async () => {
    const forbidden = await acts('operator', ['secrets', 'list']);
    expect([forbidden.code, forbidden.error?.code]).toEqual([5, 'auth.forbidden']);
    const badName = await acts('admin', ['secrets', 'set', 'bad-name'], 'x');
    expect([badName.code, badName.error?.code]).toEqual([2, 'input.invalid']);
    const empty = await acts('admin', ['secrets', 'set', 'EMPTY'], '');
    expect([empty.code, empty.error?.code]).toEqual([2, 'usage.invalid']);
    const missing = await acts('admin', ['secrets', 'delete', 'NONE']);
    expect([missing.code, missing.error?.code]).toEqual([6, 'secret.not_found']);
  });
});
