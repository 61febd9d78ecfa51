/**
 * The secrets of a real server process (server/main.ts) on a SQLite file: an http act that reads
 * a secret is cut off by SIGKILL while its call is open; the server started again with the same
 * ACTS_SECRETS_KEY runs it again with the real value (the stored params hold only `***`) and the
 * process completes. Started without the key, or with another or a malformed key, the server
 * refuses to start: exit 1 and one fatal line with the code (secrets.no_key, secrets.bad_key)
 * and a sentence naming ACTS_SECRETS_KEY. No log line holds the value.
 */
import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { json, startPeer, type Peer } from './helpers/http-peer.ts';
import { secretCall } from './helpers/secret-call.ts';
import { ServerProcess } from './helpers/server-process.ts';

const KEY = crypto.randomBytes(32).toString('base64');
const VALUE = `sv-${crypto.randomBytes(16).toString('hex')}`;

const MODEL = secretCall('held_call', { url: '{{ base }}/held', headers: { Authorization: 'Bearer {{ secrets.API_TOKEN }}' } });

describe('a server process with secrets', () => {
  let db: TestDatabase;
  let peer: Peer;
  const held: ServerResponse[] = [];
  const servers: ServerProcess[] = [];
  const start = (env: Record<string, string>) => {
    const server = new ServerProcess(db.url, env);
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    peer = await startPeer();
    // the first call is never answered (the server is killed meanwhile); later ones are
    peer.route('/held', (req, res) => (peer.seen.length === 1 ? void held.push(res) : json(res, 200, { auth: req.headers.authorization })));
  });
  afterAll(async () => {
    for (const server of servers) await server.kill();
    await peer?.close();
    await db?.drop();
  });

  it('an act cut off by a crash runs again with the real value after the restart', { timeout: 60_000 }, async () => {
    const first = await start({ ACTS_SECRETS_KEY: KEY }).start();
    await first.client().secrets.set.mutate({ name: 'API_TOKEN', value: VALUE });
    await first.client().models.deploy.mutate({ source: MODEL });
    const { pid } = await first.client().processes.start.mutate({ mid: 'held_call', inputs: { base: peer.base } });
    await eventually(() => held.length === 1, 'the first call arrived', 500);
    await first.kill();

    const second = await start({ ACTS_SECRETS_KEY: KEY }).start();
    const done = await eventually(async () => {
      const view = await second.client().processes.get.query({ pid });
      return view.process.state === 'completed' && view;
    }, 'the process completed after the restart', 1500);
    expect(peer.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${VALUE}`, `Bearer ${VALUE}`]);
    const call = done.tasks.find((task) => task.key === 'call')!;
    expect(call.params).toMatchObject({ headers: { Authorization: 'Bearer ***' } });
    expect(call.data).toMatchObject({ data: { auth: 'Bearer ***' } });
    await second.stop();
    expect(first.stderr + second.stderr).not.toContain(VALUE);
  });

  it('refuses to start without the key, with another key, or with a malformed one', { timeout: 60_000 }, async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'secrets.no_key'],
      [{ ACTS_SECRETS_KEY: crypto.randomBytes(32).toString('hex') }, 'secrets.bad_key'],
      [{ ACTS_SECRETS_KEY: 'not-a-key' }, 'secrets.bad_key'],
    ];
    for (const [env, code] of cases) {
      const server = start(env);
      expect(await server.exited).toBe(1);
      const fatal = JSON.parse(server.stderr.trim().split('\n').pop()!) as { level: string; code: string; err: string };
      expect(fatal).toMatchObject({ level: 'fatal', code });
      expect(fatal.err).toContain('ACTS_SECRETS_KEY');
    }
  });
});
