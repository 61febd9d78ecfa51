/**
 * The leak test of issue 13 item 4, on SQLite and on PostgreSQL: workflows read a secret in the
 * params of `acts.core.http` acts calling a real HTTP server on 127.0.0.1 (which must receive the
 * real value, in a header and in the URL), echo it back, fail with it in the URL (an answer 500, no
 * connection), print it from a shell act's environment, try to copy it
 * with `acts.transform.set` (it gets `***`) and with a script (where `secrets` reads nothing), and name an unknown secret. Afterwards every row
 * of every table, every log line the server and the engine wrote, and every API answer of the
 * run view (processes.get, tasks.get, messages.list, audit.query, the outbox) and every live event
 * a viewer's socket got (model rooms during the runs, each run's room after it) must not hold the
 * value; the params show `***` where it was.
 */
import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, engineLogger } from '../server/http/logger.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { json, startPeer, type Peer } from './helpers/http-peer.ts';
import { secretCall } from './helpers/secret-call.ts';
import { connected, join, SocketLog, startTestServer, type TestServer } from './helpers/server.ts';

const VALUE = `sv-${crypto.randomBytes(16).toString('hex')}`;

const BEARER = { Authorization: 'Bearer {{ secrets.API_TOKEN }}' };
const CALL = secretCall('leak_call', { url: '{{ base }}/echo?k={{ secrets.API_TOKEN }}', method: 'POST', headers: BEARER, body: { note: 'plain' } });
const FAIL = secretCall('leak_fail', { url: '{{ base }}/fail?k={{ secrets.API_TOKEN }}', headers: BEARER });
const REFUSED = secretCall('leak_refused', { url: 'http://127.0.0.1:1/x?k={{ secrets.API_TOKEN }}' });
const SHELL = `id: leak_shell
steps:
  - { id: s1, acts: [{ uses: acts.app.shell, key: script, params: { script: 'printf "token=%s" "$T"', env: { T: "{{ secrets.API_TOKEN }}" } } }] }
`;
const UNKNOWN = secretCall('leak_unknown', { url: '{{ base }}/echo', headers: { 'X-Key': '{{ secrets.NOT_STORED }}' } });

const COPY = `id: leak_copy
steps:
  - { id: s1, acts: [{ uses: acts.transform.set, key: set, params: { copied: "{{ secrets.API_TOKEN }}" } }] }
  - { id: s2, acts: [{ uses: acts.transform.code, key: code, params: "$set('stolen', secrets.API_TOKEN)" }] }
`;

/** Every row of every table of the database, as JSON lines. */
async function everyRow(db: TestDatabase): Promise<string[]> {
  if (db.backend === 'sqlite') {
    const conn = new Database(db.url.replace(/^file:/, ''), { readonly: true });
    try {
      const tables = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      return tables.flatMap(({ name }) => (conn.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((row) => `${name} ${JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`));
    } finally {
      conn.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const tables = (await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows as Array<{ tablename: string }>;
    const lines: string[] = [];
    for (const { tablename } of tables) for (const row of (await client.query(`SELECT * FROM "${tablename}"`)).rows) lines.push(`${tablename} ${JSON.stringify(row)}`);
    return lines;
  } finally {
    await client.end();
  }
}

describe.each(SQL_BACKENDS)('on %s', (backend) => {
  let db: TestDatabase;
  let t: TestServer;
  let peer: Peer;
  let shellRoot = '';
  const logLines: string[] = [];
  const answers: string[] = [];
  /** A viewer's live events: the model rooms of every run, each run's room after it ended. */
  let live: SocketLog;

  beforeAll(async () => {
    peer = await startPeer();
    peer.route('/echo', (req, res) => json(res, 200, { auth: req.headers.authorization ?? null, url: req.url }));
    peer.route('/fail', (req, res) => json(res, 500, { said: req.headers.authorization ?? null }));
    db = await createTestDatabase(backend);
    shellRoot = mkdtempSync(path.join(tmpdir(), 'acts-secrets-shell-'));
    const sink = new Writable({ write: (chunk, _enc, done) => void (logLines.push(String(chunk)), done()) });
    const log = createLogger({ level: 'debug', destination: sink });
    t = await startTestServer({ backend, database: db, log, secretsKey: crypto.randomBytes(32).toString('base64'), engine: { logger: engineLogger(log), shell: { enabled: true, root: shellRoot } } });
    await t.as('admin').secrets.set.mutate({ name: 'API_TOKEN', value: VALUE });
    for (const source of [CALL, FAIL, REFUSED, SHELL, COPY, UNKNOWN]) await t.as('designer').models.deploy.mutate({ source });
    live = new SocketLog(t.socket('viewer'));
    await connected(live.socket);
    for (const mid of ['leak_call', 'leak_fail', 'leak_refused', 'leak_shell', 'leak_copy', 'leak_unknown']) expect((await join(live.socket, `model:${mid}`)).ok).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    await peer?.close();
    if (shellRoot) rmSync(shellRoot, { recursive: true, force: true });
  });

  /** Starts a run of `mid`, waits for its end and returns the run view, every answer recorded. */
  async function run(mid: string) {
    const { pid } = await t.as('operator').processes.start.mutate({ mid, inputs: { base: peer.base } });
    await t.engine.idle();
    const view = await t.as('viewer').processes.get.query({ pid });
    answers.push(JSON.stringify(view));
    for (const task of view.tasks) answers.push(JSON.stringify(await t.as('viewer').tasks.get.query({ pid, tid: task.tid })));
    answers.push(JSON.stringify(await t.as('viewer').messages.list.query({ pid })));
    expect((await join(live.socket, `proc:${pid}`)).ok).toBe(true);
    await live.waitFor('catchup', (p) => p.room === `proc:${pid}`);
    return view;
  }

  it('an http act sends the real value; its params show ***, its echoed answer is redacted', async () => {
    const view = await run('leak_call');
    expect(view.process.state).toBe('completed');
    const seen = peer.seen.find((s) => s.path.startsWith('/echo'))!;
    expect(seen.headers.authorization).toBe(`Bearer ${VALUE}`);
    expect(seen.path).toBe(`/echo?k=${VALUE}`);
    const call = view.tasks.find((task) => task.key === 'call')!;
    expect(call.params).toMatchObject({ url: `${peer.base}/echo?k=***`, headers: { Authorization: 'Bearer ***' } });
    expect(call.data).toMatchObject({ status: 200, data: { auth: 'Bearer ***', url: '/echo?k=***' } });
  });

  /** Runs `mid`, whose act `call` must fail the process with `ecode`; the error's message. */
  async function failedCall(mid: string, ecode: string): Promise<string> {
    const view = await run(mid);
    expect(view.process.state).toBe('error');
    const err = view.tasks.find((task) => task.key === 'call')!.err!;
    expect(err.ecode).toBe(ecode);
    return err.message;
  }

  it("a failing call's error names no value", async () => {
    expect(await failedCall('leak_fail', '500')).toContain('/fail?k=***');
    expect(peer.seen.find((s) => s.path.startsWith('/fail'))!.headers.authorization).toBe(`Bearer ${VALUE}`);
  });

  it('a call that gets no connection fails without the value in its error', async () => {
    expect(await failedCall('leak_refused', 'http.failed')).toContain('k=***');
  });

  it('a shell act gets the value in its environment; what it prints is redacted', async () => {
    const view = await run('leak_shell');
    expect(view.process.state).toBe('completed');
    const script = view.tasks.find((task) => task.key === 'script')!;
    expect(script.params).toMatchObject({ env: { T: '***' } });
    expect(script.data).toMatchObject({ data: 'token=***', exit_code: 0 });
  });

  it('other acts see ***; in a script `secrets` reads nothing', async () => {
    const view = await run('leak_copy');
    expect(view.process.state).toBe('completed');
    expect(view.tasks.find((task) => task.key === 'set')!.data).toMatchObject({ copied: '***' });
    expect(view.tasks.find((task) => task.key === 'code')!.data).toMatchObject({ stolen: null });
  });

  it('an unknown secret fails the act with ecode secret.unknown', async () => {
    expect(await failedCall('leak_unknown', 'secret.unknown')).toContain('NOT_STORED');
  });

  it('no table, log line or answer holds the value', async () => {
    await t.engine.flush();
    answers.push(JSON.stringify(await t.as('admin').audit.query.query({})));
    answers.push(JSON.stringify(await t.as('admin').secrets.list.query()));
    answers.push(JSON.stringify(await t.engine.outbox()));
    const catchups = live.of('catchup').filter((p) => String(p.room).startsWith('proc:'));
    expect(catchups.length).toBe(6);
    expect(JSON.stringify(catchups)).toContain('Bearer ***');
    answers.push(JSON.stringify(live.events));
    const rows = await everyRow(db);
    expect(rows.filter((line) => line.startsWith('tasks ')).length).toBeGreaterThan(4);
    expect(rows.filter((line) => line.startsWith('secrets ')).length).toBe(1);
    expect(rows.filter((line) => line.includes(VALUE))).toEqual([]);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(VALUE))).toEqual([]);
    expect(answers.filter((text) => text.includes(VALUE))).toEqual([]);
    expect(rows.some((line) => line.startsWith('tasks ') && line.includes('Bearer ***'))).toBe(true);
  });
});
