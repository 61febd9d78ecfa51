/**
 * `acts secrets list | set | delete` run for real (`node bin/acts.mjs` as a child process)
 * against a test server with a key: the value comes from stdin or --from-env and is never
 * printed; lines are JSON; a non-admin gets auth.forbidden (exit 5), a bad name input.invalid
 * (exit 2), a missing secret secret.not_found (exit 6). `acts run --store` reads a store's secrets
 * with ACTS_SECRETS_KEY and refuses to run without it.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createTestDatabase } from './helpers/databases.ts';
import { json, startPeer } from './helpers/http-peer.ts';
import { secretCall } from './helpers/secret-call.ts';
import { openStore } from '../server/store/open-store.ts';
import { parseSecretsKey, SecretBook } from '../server/secrets/index.ts';
import { systemClock } from '../server/engine/clock.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VALUE = `sv-${crypto.randomBytes(16).toString('hex')}`;

interface Result {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  error?: { code: string; message: string };
  text: string;
}

let t: TestServer;

/** Runs `acts …args` as `who` against the test server, with `stdin` written to it. */
function acts(who: string, args: string[], stdin = '', env: Record<string, string> = {}): Promise<Result> {
  return actsLocal([...args, '--server', t.url], stdin, { ACTS_TOKEN: t.tokenOf(who), ...env });
}

/** Runs `acts …args` with the ACTS_* variables of `env` only. */
function actsLocal(args: string[], stdin = '', env: Record<string, string> = {}): Promise<Result> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ACTS_')));
  const child = spawn(process.execPath, ['bin/acts.mjs', ...args], { cwd: ROOT, env: { ...base, ...env } });
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

describe('acts run --store', () => {
  it('reads the store\'s secrets with ACTS_SECRETS_KEY; refuses without it (exit 2)', { timeout: 60_000 }, async () => {
    const db = await createTestDatabase('sqlite');
    const peer = await startPeer();
    const dir = mkdtempSync(path.join(tmpdir(), 'acts-cli-secrets-'));
    try {
      peer.route('/x', (req, res) => json(res, 200, { auth: req.headers.authorization }));
      const key = crypto.randomBytes(32).toString('hex');
      const store = await openStore(db.url);
      await (await SecretBook.open(store, parseSecretsKey(key), systemClock)).set('API_TOKEN', VALUE, 'ann');
      await store.close();
      const file = path.join(dir, 'call.yml');
      writeFileSync(file, secretCall('cli_call', { url: `${peer.base}/x`, headers: { Authorization: 'Bearer {{ secrets.API_TOKEN }}' } }));
      const ran = await actsLocal(['run', file, '--store', db.url], '', { ACTS_SECRETS_KEY: key });
      expect(ran.code, ran.text).toBe(0);
      expect(ran.lines.at(-1)).toMatchObject({ event: 'complete' });
      expect(peer.seen[0].headers.authorization).toBe(`Bearer ${VALUE}`);
      expect(ran.text).not.toContain(VALUE);
      const refused = await actsLocal(['run', file, '--store', db.url]);
      expect(refused.code).toBe(2);
      expect(refused.text).toContain('ACTS_SECRETS_KEY is not set');
    } finally {
      await peer.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
