/**
 * The remote commands of `acts` (deploy, start, act, migrate, procs, tasks), run for real: a server with
 * the real auth (server/auth, users and API tokens in the store) on a SQLite file in this test
 * process, and `node bin/acts.mjs …` as a child process against it. Checks results on stdout,
 * the JSON error line on stderr with its stable code, the exit codes, and that the token is
 * never printed.
 */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLog } from '../server/audit/types.ts';
import { createAuth } from '../server/auth/index.ts';
import { Engine } from '../server/runtime/engine.ts';
import { createServer, type ActsServer } from '../server/http/server.ts';
import { openStore, type OpenedStore } from '../server/store/open-store.ts';
import type { ApiClient } from '../server/cli/remote/client.ts';
import { waitForEnd } from '../server/cli/remote/wait.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIMEOUT = 30_000;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout lines parsed as JSON (reading it fails the test when a line is not JSON). */
  lines: Array<Record<string, any>>;
  /** The last stderr line parsed as JSON, when there is one. */
  error?: { code: string; message: string; retryable: boolean; details?: unknown };
}

let db: TestDatabase;
let store: OpenedStore;
let engine: Engine;
let server: ActsServer;
let url: string;
let dir: string;
/** Tokens: `ops` has operator + designer, `watcher` is a viewer. */
const tokens: Record<'ops' | 'watcher', string> = { ops: '', watcher: '' };
/** Every output of every child, to check that no token was ever printed. */
const outputs: string[] = [];

const noAudit: AuditLog = { record: async () => undefined, query: async () => ({ count: 0, rows: [] }) };

function parseLine(line: string, where: string): Record<string, any> {
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${where} line is not JSON: ${line}`);
  }
}

/** Runs `node bin/acts.mjs …args`; `env` replaces the ACTS_* variables. Never rejects. */
function acts(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ACTS_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/acts.mjs', ...args], { cwd: ROOT, timeout: TIMEOUT - 5_000, env: { ...base, NO_COLOR: '1', ...env } }, (error, stdout, stderr) => {
      outputs.push(stdout, stderr);
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      const last = stderr.trim().split('\n').pop() ?? '';
      const failure = last.startsWith('{') ? (parseLine(last, 'stderr') as CliResult['error']) : undefined;
      resolve({
        code,
        stdout,
        stderr,
        error: failure,
        get lines() {
          return stdout
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l) => parseLine(l, 'stdout'));
        },
      });
    });
  });
}

/** `acts` as user `who` against the test server (flags, not the environment). */
const as = (who: 'ops' | 'watcher', args: string[]) => acts([...args, '--server', url, '--token', tokens[who]]);

/** A failed run: its exit code, nothing on stdout, one JSON error line with this code, no stack. */
function expectFailure(r: CliResult, exit: number, code: string): NonNullable<CliResult['error']> {
  const context = `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  expect(r.code, context).toBe(exit);
  expect(r.error?.code, context).toBe(code);
  expect(r.error!.message.length, context).toBeGreaterThan(10);
  expect(r.stdout, context).toBe('');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  return r.error!;
}

function modelFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const SUM = `id: sum
inputs: { a: 1, b: 2 }
outputs: { total: null }
steps:
  - id: add
    acts:
      - uses: acts.transform.code
        params: |
          return { total: a + b };
`;

const BOOM = `id: boom
steps:
  - id: s
    acts:
      - uses: acts.transform.code
        params: |
          throw new Error('boom');
`;

const APPROVAL = `id: approval
inputs: { amount: 10, who: nobody }
outputs: { ok: null }
steps:
  - id: ask
    acts:
      - { uses: acts.core.irq, key: approve, params: { title: 'Approve {{ amount }}?' }, outputs: { ok: null } }
`;

/** Starts a process through the engine and returns the tid of its open `approve` task. */
async function openApproval(inputs: Record<string, unknown> = {}): Promise<{ pid: string; tid: string }> {
  const proc = await engine.procs.start('approval', inputs);
  await engine.idle();
  const task = (await engine.tasks.list(proc.pid)).find((t) => t.key === 'approve' && t.state === 'interrupted');
  if (!task) throw new Error(`no open approve task in ${proc.pid}`);
  return { pid: proc.pid, tid: task.tid };
}

/** A local HTTP server answering every request with `handler`; closed after the test. */
async function fakeServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'acts-cli-remote-'));
  db = await createTestDatabase('sqlite');
  store = await openStore(db.url);
  engine = await Engine.create({ store, autoTick: false, tickIntervalSecs: 1 });
  const auth = createAuth(store, { passwordHashing: { memoryCost: 256, timeCost: 1 } });
  const ops = await auth.users.create('ops', 'ops-password-1', ['operator', 'designer']);
  const watcher = await auth.users.create('watcher', 'watcher-password-1', ['viewer']);
  tokens.ops = (await auth.tokens.create(ops.id, 'cli')).token;
  tokens.watcher = (await auth.tokens.create(watcher.id, 'cli')).token;
  server = await createServer({ engine, store, auth, audit: noAudit, log: pino({ level: 'silent' }) });
  url = `http://127.0.0.1:${(await server.listen(0)).port}`;
  await engine.models.deploy(APPROVAL);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('acts deploy', () => {
  it('deploys a model file as a new version and prints {id, ver}', { timeout: TIMEOUT }, async () => {
    const file = modelFile('sum.yml', SUM);
    const first = await as('ops', ['deploy', file]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.lines).toEqual([{ id: 'sum', ver: 1, warnings: [] }]);
    const second = await as('ops', ['deploy', file, '--note', 'second cut']);
    expect(second.lines).toEqual([{ id: 'sum', ver: 2, warnings: [] }]);
    expect((await engine.models.get('sum')).ver).toBe(2);
    const versions = (await engine.models.versions('sum')).map((v) => [v.ver, v.note, v.deployed_by]);
    expect(versions).toEqual([[1, '', 'ops'], [2, 'second cut', 'ops']]);
  });

  it('prints every problem of an invalid model with file:line:col, then model.invalid; exit 2; nothing deployed', { timeout: TIMEOUT }, async () => {
    const file = modelFile('broken.yml', 'id: broken\nsteps:\n  - id: a\n    next: nowhere\n  - id: a\n');
    const r = await as('ops', ['deploy', file]);
    const error = expectFailure(r, 2, 'model.invalid');
    const lines = r.stderr.trim().split('\n');
    const problems = lines.slice(0, -2);
    expect(problems.length, r.stderr).toBeGreaterThanOrEqual(2);
    for (const p of problems) expect(p).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: .+ \\[[a-z_.]+\\]`));
    expect(r.stderr).toMatch(/:4:\d+: .*nowhere/);
    expect(lines[lines.length - 2]).toBe(`${file}: ${problems.length} problems`);
    expect(Array.isArray(error.details) && error.details.length).toBe(problems.length);
    await expect(engine.models.get('broken')).rejects.toMatchObject({ code: 'model.not_found' });
  });

  it('reports a YAML syntax error with its line', { timeout: TIMEOUT }, async () => {
    const file = modelFile('syntax.yml', 'id: syntax\nsteps:\n  - id: [unclosed\n');
    const r = await as('ops', ['deploy', file]);
    expectFailure(r, 2, 'model.invalid');
    expect(r.stderr).toMatch(/syntax\.yml:\d+:\d+: .*\[yaml\./);
  });

  it('--dry-run validates on the server without deploying', { timeout: TIMEOUT }, async () => {
    const ok = await as('ops', ['deploy', modelFile('dry.yml', SUM.replace('id: sum', 'id: dry')), '--dry-run']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.lines).toEqual([{ file: path.join(dir, 'dry.yml'), valid: true }]);
    await expect(engine.models.get('dry')).rejects.toMatchObject({ code: 'model.not_found' });
    const bad = await as('ops', ['deploy', modelFile('dry-bad.yml', 'id: drybad\nsteps:\n  - id: a\n    next: nowhere\n'), '--dry-run']);
    expectFailure(bad, 2, 'model.invalid');
    expect(bad.stderr).toMatch(/dry-bad\.yml:4:\d+: /);
  });

  it('refuses an unknown token (auth.required, exit 5) and a viewer (auth.forbidden, exit 5)', { timeout: TIMEOUT }, async () => {
    const file = modelFile('sum2.yml', SUM.replace('id: sum', 'id: sum2'));
    const [unknown, viewer] = await Promise.all([
      acts(['deploy', file, '--server', url, '--token', 'acts_not-a-real-token']),
      as('watcher', ['deploy', file]),
    ]);
    expect(expectFailure(unknown, 5, 'auth.required').message).toMatch(/did not accept the API token/);
    expect(unknown.stderr).not.toContain('acts_not-a-real-token');
    expect(expectFailure(viewer, 5, 'auth.forbidden').message).toMatch(/designer/);
    await expect(engine.models.get('sum2')).rejects.toMatchObject({ code: 'model.not_found' });
  });

  it('a missing file is a usage error (exit 2) before anything is sent', { timeout: TIMEOUT }, async () => {
    const r = await as('ops', ['deploy', path.join(dir, 'nope.yml')]);
    expect(expectFailure(r, 2, 'usage.invalid').message).toMatch(/nope\.yml' does not exist/);
  });
});

describe('acts package', () => {
  it('declares an external package from a schema file; a model using it then deploys', { timeout: TIMEOUT }, async () => {
    const schema = modelFile('quote.schema.json', JSON.stringify({ type: 'object', required: ['kg'], properties: { kg: { type: 'number' } } }));
    const r = await as('ops', ['package', 'ext.cli-quote', '--schema', schema, '--desc', 'Prices a parcel']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toEqual([{ name: 'ext.cli-quote', external: true }]);
    expect(await engine.packages.get('ext.cli-quote')).toMatchObject({ run_as: 'worker', desc: 'Prices a parcel' });
    const deployed = await as('ops', ['deploy', modelFile('quote.yml', 'id: cli-quote\nsteps:\n  - id: s1\n    acts:\n      - { uses: ext.cli-quote, params: { kg: 2 } }\n')]);
    expect(deployed.code, deployed.stderr).toBe(0);
  });

  it('a schema file that is not JSON is usage.invalid (exit 2); a bad name is package.invalid; a viewer is refused', { timeout: TIMEOUT }, async () => {
    const schema = modelFile('ok.schema.json', '{"type":"object"}');
    expectFailure(await as('ops', ['package', 'ext.x', '--schema', modelFile('bad.schema.json', '{ nope')]), 2, 'usage.invalid');
    expect(expectFailure(await as('ops', ['package', 'Not A Name', '--schema', schema]), 6, 'package.invalid').message).toMatch(/dotted lowercase/);
    expect((await as('watcher', ['package', 'ext.x', '--schema', schema])).code).toBe(5);
  });
});

describe('acts start', () => {
  beforeAll(async () => {
    await engine.models.deploy(SUM);
    await engine.models.deploy(BOOM);
  });

  it('prints the process; --input pairs are typed JSON when they parse and override --inputs', { timeout: TIMEOUT }, async () => {
    const r = await as('ops', ['start', 'approval', '--inputs', '{"amount": 1, "who": "x", "note": "keep"}', '--input', 'amount=42', '--input', 'who=alice', '--input', 'zip="01234"', '--input', 'tags=["a","b"]', '--input', 'empty=']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toHaveLength(1);
    const proc = r.lines[0];
    expect(proc).toMatchObject({ mid: 'approval', state: expect.any(String), pid: expect.any(String) });
    await engine.idle();
    const root = (await engine.tasks.list(proc.pid)).find((t) => t.tid === '$')!;
    expect(root.data).toMatchObject({ amount: 42, who: 'alice', zip: '01234', tags: ['a', 'b'], empty: '', note: 'keep' });
  });

  it('--idempotency-key: the same start again prints the first process with "repeated":true; other inputs are process.key_conflict (exit 6)', { timeout: TIMEOUT }, async () => {
    const key = 'cli-start-once';
    const args = ['start', 'approval', '--input', 'amount=7', '--idempotency-key', key];
    const first = await as('ops', args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.lines).toEqual([expect.objectContaining({ mid: 'approval', repeated: false })]);
    const again = await as('ops', args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.lines).toEqual([expect.objectContaining({ pid: first.lines[0].pid, repeated: true })]);
    const other = expectFailure(await as('ops', ['start', 'approval', '--input', 'amount=8', '--idempotency-key', key]), 6, 'process.key_conflict');
    expect(other.details).toEqual({ pid: first.lines[0].pid, mid: 'approval' });
    expect((await engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'start_key', op: 'eq', value: key }] } })).count).toBe(1);
    expect((await acts(['start', '--help'])).stdout).toContain('--idempotency-key <key>');
  });

  it('--wait waits for a workflow that completes on its own: final line like acts run, exit 0', { timeout: TIMEOUT }, async () => {
    const r = await as('ops', ['start', 'sum', '--input', 'a=40', '--input', 'b=2', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toHaveLength(2);
    expect(r.lines[0]).toMatchObject({ mid: 'sum' });
    expect(r.lines[1]).toEqual({ event: 'complete', state: 'completed', outputs: { total: 42 }, error: null });
  });

  it('--wait on a process that fails ends with event error and exit 1', { timeout: TIMEOUT }, async () => {
    const r = await as('ops', ['start', 'boom', '--wait']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.lines[1]).toMatchObject({ event: 'error', state: 'error', error: { message: 'boom' } });
  });

  it('--wait returns once someone else answers the open task', { timeout: TIMEOUT }, async () => {
    const child = spawn(process.execPath, ['bin/acts.mjs', 'start', 'approval', '--wait', '--server', url, '--token', tokens.ops], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const firstLine = new Promise<Record<string, any>>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]));
      });
    });
    const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
    const { pid } = await firstLine;
    await engine.idle();
    const task = (await engine.tasks.list(pid)).find((t) => t.key === 'approve' && t.state === 'interrupted')!;
    const early = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 500))]);
    expect(early, `the child must still be waiting; stderr: ${stderr}`).toBeNull();
    await engine.do({ pid, tid: task.tid, action: 'complete', options: { ok: true } });
    expect(await exited, stderr).toBe(0);
    outputs.push(stdout, stderr);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({ event: 'complete', state: 'completed', outputs: { ok: true }, error: null });
  });

  it('--wait-timeout: still waiting → final waiting line with the open tasks, exit 3', { timeout: TIMEOUT }, async () => {
    const r = await as('ops', ['start', 'approval', '--wait', '--wait-timeout', '0.5']);
    expect(r.code, r.stderr).toBe(3);
    const [proc, final] = r.lines;
    expect(final).toMatchObject({ event: 'waiting', state: 'running', error: null });
    expect(final.tasks).toEqual([{ key: 'approve', tid: expect.any(String), nid: expect.any(String), pid: proc.pid }]);
  });

  it('refuses an unknown model (exit 6), bad inputs (exit 2) and a viewer (exit 5)', { timeout: TIMEOUT }, async () => {
    const [unknown, badJson, notObject, badPair, viewer, timeoutAlone] = await Promise.all([
      as('ops', ['start', 'no-such-model']),
      as('ops', ['start', 'sum', '--inputs', '{oops']),
      as('ops', ['start', 'sum', '--inputs', '[1]']),
      as('ops', ['start', 'sum', '--input', 'novalue']),
      as('watcher', ['start', 'sum']),
      as('ops', ['start', 'sum', '--wait-timeout', '1']),
    ]);
    expect(expectFailure(unknown, 6, 'model.not_found').message).toMatch(/no-such-model/);
    expect(expectFailure(badJson, 2, 'usage.invalid').message).toMatch(/--inputs is not valid JSON/);
    expect(expectFailure(notObject, 2, 'usage.invalid').message).toMatch(/--inputs must be a JSON object/);
    expect(expectFailure(badPair, 2, 'usage.invalid').message).toMatch(/--input expects key=value, got 'novalue'/);
    expectFailure(viewer, 5, 'auth.forbidden');
    expect(expectFailure(timeoutAlone, 2, 'usage.invalid').message).toMatch(/--wait-timeout .*--wait/);
  });
});

describe('acts act', () => {
  it('completes an open task; a second complete is refused with action.refused (exit 6)', { timeout: TIMEOUT }, async () => {
    const { pid, tid } = await openApproval();
    const r = await as('ops', ['act', pid, tid, 'complete', '--option', 'ok=true']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toEqual([{ pid, tid, action: 'complete' }]);
    await engine.idle();
    const proc = await engine.procs.get(pid);
    expect(proc.state).toBe('completed');
    expect(proc.outputs).toEqual({ ok: true });
    const again = await as('ops', ['act', pid, tid, 'complete', '--options', '{"ok": false}']);
    expect(expectFailure(again, 6, 'action.refused').message).toMatch(/already/);
  });

  it('other actions go through: error with options ends the process in error', { timeout: TIMEOUT }, async () => {
    const { pid, tid } = await openApproval();
    const r = await as('ops', ['act', pid, tid, 'error', '--options', '{"ecode": "rejected", "message": "no"}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toEqual([{ pid, tid, action: 'error' }]);
    await engine.idle();
    expect((await engine.procs.get(pid)).state).toBe('error');
  });

  it('outcome: a declared outcome ends the run on it (completed); an undeclared one is action.unknown_outcome (exit 2)', { timeout: TIMEOUT }, async () => {
    await engine.models.deploy(APPROVAL.replace('id: approval', 'id: decided').replace("params: { title: 'Approve {{ amount }}?' }", "params: { title: 'Approve?', outcomes: { approve: {}, reject: { ecode: rejected } } }"));
    const proc = await engine.procs.start('decided', {});
    await engine.idle();
    const tid = (await engine.tasks.list(proc.pid)).find((t) => t.key === 'approve' && t.state === 'interrupted')!.tid;
    const unknown = await as('ops', ['act', proc.pid, tid, 'outcome', '--option', 'outcome=maybe']);
    expect(expectFailure(unknown, 2, 'action.unknown_outcome').message).toMatch(/choose one of 'approve', 'reject'/);
    const r = await as('ops', ['act', proc.pid, tid, 'outcome', '--option', 'outcome=reject']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toEqual([{ pid: proc.pid, tid, action: 'outcome' }]);
    await engine.idle();
    expect(await engine.procs.get(proc.pid)).toMatchObject({ state: 'completed', outcome: 'reject', err: null, outputs: { outcome: 'reject' } });
  });

  it('unknown pid (process.not_found, 6), missing declared outputs (action.invalid_options, 2), unknown action (action.unknown, 2), viewer (5)', { timeout: TIMEOUT }, async () => {
    const { pid, tid } = await openApproval();
    const [unknownPid, missingOutputs, unknownAction, viewer] = await Promise.all([
      as('ops', ['act', 'no-such-pid', tid, 'complete']),
      as('ops', ['act', pid, tid, 'complete']),
      as('ops', ['act', pid, tid, 'approve']),
      as('watcher', ['act', pid, tid, 'complete', '--option', 'ok=true']),
    ]);
    expect(expectFailure(unknownPid, 6, 'process.not_found').message).toMatch(/no-such-pid/);
    expect(expectFailure(missingOutputs, 2, 'action.invalid_options').message).toMatch(/'ok'/);
    expect(expectFailure(unknownAction, 2, 'action.unknown').message).toMatch(/complete, submit, back, cancel, abort, skip, error, push, remove, set-vars/);
    expectFailure(viewer, 5, 'auth.forbidden');
    expect((await engine.tasks.get(pid, tid)).state).toBe('interrupted');
  });
});

describe('acts procs and acts tasks', () => {
  let pids: string[];
  beforeAll(async () => {
    await engine.models.deploy(SUM.replace('id: sum', 'id: listed'));
    const listed = [];
    for (let i = 0; i < 3; i++) listed.push((await engine.procs.start('listed', { a: i, b: 0 })).pid);
    await engine.idle();
    pids = listed;
  });

  it('procs: one JSON line per process; --model, --state, --limit and --offset filter and page', { timeout: TIMEOUT }, async () => {
    const [all, byModel, running, limited, offset] = await Promise.all([
      as('watcher', ['procs', '--limit', '500']),
      as('watcher', ['procs', '--model', 'listed']),
      as('watcher', ['procs', '--model', 'listed', '--state', 'running']),
      as('watcher', ['procs', '--model', 'listed', '--limit', '2']),
      as('watcher', ['procs', '--model', 'listed', '--limit', '2', '--offset', '2']),
    ]);
    for (const r of [all, byModel, running, limited, offset]) expect(r.code, r.stderr).toBe(0);
    expect(all.lines.length).toBeGreaterThan(3);
    expect(new Set(all.lines.map((p) => p.mid))).toContain('approval');
    expect(byModel.lines.map((p) => p.pid).sort()).toEqual([...pids].sort());
    expect(byModel.lines.every((p) => p.mid === 'listed' && p.state === 'completed')).toBe(true);
    expect(running.lines).toEqual([]);
    expect(limited.lines).toHaveLength(2);
    expect(offset.lines).toHaveLength(1);
    expect([...limited.lines, ...offset.lines].map((p) => p.pid).sort()).toEqual([...pids].sort());
  });

  it('procs: a misspelt state or a bad --limit is a usage error', { timeout: TIMEOUT }, async () => {
    const [state, limit] = await Promise.all([as('watcher', ['procs', '--state', 'complete']), as('watcher', ['procs', '--limit', '0'])]);
    expect(expectFailure(state, 2, 'usage.invalid').message).toMatch(/'complete' is not a state.*completed/);
    expect(expectFailure(limit, 2, 'usage.invalid').message).toMatch(/--limit must be a whole number from 1 to 500/);
  });

  it('tasks <pid>: one JSON line per task; --state filters; --inbox lists open interrupts', { timeout: TIMEOUT }, async () => {
    const { pid, tid } = await openApproval();
    const [tasks, open, inbox, unknown, neither] = await Promise.all([
      as('watcher', ['tasks', pid]),
      as('watcher', ['tasks', pid, '--state', 'interrupted']),
      as('ops', ['tasks', '--inbox', '--model', 'approval', '--limit', '500']),
      as('watcher', ['tasks', 'no-such-pid']),
      as('watcher', ['tasks']),
    ]);
    expect(tasks.code, tasks.stderr).toBe(0);
    expect(tasks.lines.map((t) => t.kind)).toEqual(expect.arrayContaining(['workflow', 'step', 'act']));
    expect(tasks.lines.every((t) => t.pid === pid)).toBe(true);
    expect(tasks.lines[0]).toMatchObject({ tid: '$', kind: 'workflow' });
    expect(open.lines).toEqual([expect.objectContaining({ pid, tid, key: 'approve', state: 'interrupted' })]);
    expect(inbox.code, inbox.stderr).toBe(0);
    expect(inbox.lines).toContainEqual(expect.objectContaining({ pid, tid, key: 'approve', mid: 'approval' }));
    expectFailure(unknown, 6, 'process.not_found');
    expect(expectFailure(neither, 2, 'usage.invalid').message).toMatch(/--inbox/);
  });

  it('tasks --inbox needs the operate permission (a viewer gets auth.forbidden)', { timeout: TIMEOUT }, async () => {
    expectFailure(await as('watcher', ['tasks', '--inbox']), 5, 'auth.forbidden');
  });
});

describe('connection', () => {
  it('takes the server and token from ACTS_SERVER and ACTS_TOKEN', { timeout: TIMEOUT }, async () => {
    const r = await acts(['procs', '--limit', '1'], { ACTS_SERVER: url, ACTS_TOKEN: tokens.watcher });
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines).toHaveLength(1);
  });

  it('a missing token or server is a usage error naming the flag and the variable (exit 2)', { timeout: TIMEOUT }, async () => {
    const [noToken, noServer, badUrl] = await Promise.all([
      acts(['procs'], { ACTS_SERVER: url }),
      acts(['procs'], { ACTS_TOKEN: tokens.watcher }),
      acts(['procs', '--server', 'ftp://example.org', '--token', tokens.watcher]),
    ]);
    expect(expectFailure(noToken, 2, 'usage.invalid').message).toMatch(/--token.*ACTS_TOKEN/);
    expect(expectFailure(noServer, 2, 'usage.invalid').message).toMatch(/--server.*ACTS_SERVER/);
    expect(expectFailure(badUrl, 2, 'usage.invalid').message).toMatch(/http:\/\/ or https:\/\//);
  });

  it('an unreachable server is server.unreachable naming the URL (exit 4, retryable)', { timeout: TIMEOUT }, async () => {
    const closed = await fakeServer(() => undefined);
    await closed.close();
    const r = await acts(['procs', '--server', closed.url, '--token', tokens.watcher]);
    const error = expectFailure(r, 4, 'server.unreachable');
    expect(error.message).toContain(closed.url);
    expect(error.message).toMatch(/connection refused/);
    expect(error.retryable).toBe(true);
  });

  it('a server that does not answer within --request-timeout is server.unreachable', { timeout: TIMEOUT }, async () => {
    const silent = await fakeServer(() => undefined);
    try {
      const r = await acts(['procs', '--server', silent.url, '--token', tokens.watcher, '--request-timeout', '0.3']);
      expect(expectFailure(r, 4, 'server.unreachable').message).toMatch(/no answer within 0\.3 s/);
    } finally {
      await silent.close();
    }
  });

  it('something that is not an acts server is server.bad_response (exit 4)', { timeout: TIMEOUT }, async () => {
    const web = await fakeServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not here</html>');
    });
    try {
      const r = await acts(['procs', '--server', web.url, '--token', tokens.watcher]);
      expect(expectFailure(r, 4, 'server.bad_response').message).toMatch(/HTTP 404.*base URL/);
    } finally {
      await web.close();
    }
  });

  it('a gateway page (HTTP 502) is server.unreachable, retryable', { timeout: TIMEOUT }, async () => {
    const gateway = await fakeServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    try {
      const r = await acts(['procs', '--server', gateway.url, '--token', tokens.watcher]);
      const error = expectFailure(r, 4, 'server.unreachable');
      expect(error.message).toMatch(/HTTP 502 from a proxy or gateway/);
      expect(error.retryable).toBe(true);
    } finally {
      await gateway.close();
    }
  });

  it('accepts the API endpoint URL itself (…/api/trpc) as --server', { timeout: TIMEOUT }, async () => {
    const r = await acts(['procs', '--limit', '1', '--server', `${url}/api/trpc/`, '--token', tokens.watcher]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('argument errors of remote commands are JSON usage errors too (exit 2)', { timeout: TIMEOUT }, async () => {
    const [missing, unknownFlag] = await Promise.all([acts(['act', 'p1'], { ACTS_SERVER: url }), acts(['procs', '--bogus'], { ACTS_SERVER: url })]);
    expect(expectFailure(missing, 2, 'usage.invalid').message).toBe("missing required argument 'tid' (see acts act --help)");
    expect(expectFailure(unknownFlag, 2, 'usage.invalid').message).toBe("unknown option '--bogus' (see acts procs --help)");
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help lists the remote commands and exit codes and never shows the token', { timeout: TIMEOUT }, async () => {
    const env = { ACTS_SERVER: url, ACTS_TOKEN: tokens.ops };
    const [top, start] = await Promise.all([acts(['--help'], env), acts(['start', '--help'], env)]);
    expect(top.code).toBe(0);
    for (const command of ['deploy', 'start', 'act', 'procs', 'tasks']) expect(top.stdout).toMatch(new RegExp(`\\n\\s+${command} `));
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(/--wait-timeout/);
    expect(start.stdout).toMatch(/4 server unreachable/);
    expect(start.stdout).toMatch(/5 token not accepted/);
    expect(start.stdout).toMatch(/6 refused/);
    expect(start.stdout).toMatch(/\$ACTS_TOKEN/);
  });
});

describe('acts migrate', () => {
  const v1 = `id: mig
steps:
  - { id: ask, acts: [ { id: approve, uses: acts.core.irq, key: approve } ] }
`;
  const v2 = `id: mig
steps:
  - { id: ask2, acts: [ { id: approve, uses: acts.core.irq, key: approve } ] }
  - { id: after, acts: [ { uses: acts.core.msg, key: after } ] }
`;

  it('checks a plan (blocked processes listed, exit 6), then migrates every process of the version; one line each', { timeout: TIMEOUT }, async () => {
    await engine.models.deploy(v1);
    const pids = [(await engine.procs.start('mig', {})).pid, (await engine.procs.start('mig', {})).pid];
    await engine.idle();
    await engine.models.deploy(v2);
    expectFailure(await as('ops', ['migrate', 'mig', '--from', '1']), 2, 'usage.invalid');

    const blocked = await as('ops', ['migrate', 'mig', '--from', '1', '--to', '2', '--check']);
    expect([blocked.code, blocked.error?.code]).toEqual([6, 'process.migration_refused']);
    expect(blocked.lines.slice(0, 2).map((l) => l.pid).sort()).toEqual([...pids].sort());
    expect(blocked.lines[0].problems[0]).toMatchObject({ code: 'no_target', nid: 'ask' });
    expect(blocked.lines[2]).toMatchObject({ total: 2, ready: 0, blocked: 2 });

    const ready = await as('ops', ['migrate', 'mig', '--from', '1', '--to', '2', '--map', 'ask=ask2', '--check']);
    expect(ready.code).toBe(0);
    expect(ready.lines).toMatchObject([{ total: 2, ready: 2, blocked: 0 }]);

    const moved = await as('ops', ['migrate', 'mig', '--from', '1', '--to', '2', '--map', 'ask=ask2']);
    expect(moved.code).toBe(0);
    expect(moved.lines.slice(0, 2).map((l) => [l.pid, l.outcome]).sort()).toEqual(pids.map((pid) => [pid, 'done']).sort());
    expect(moved.lines[2]).toMatchObject({ total: 2, done: 2, skipped: 0, refused: 0 });
    for (const pid of pids) expect((await engine.procs.get(pid)).model_ver).toBe(2);
  });
});

describe('waitForEnd (in process, a scripted client)', () => {
  const connection = { endpoint: 'http://acts.test/api/trpc', display: 'http://acts.test', token: 't', requestTimeoutMs: 1000 };
  const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  const detail = (state: string) => ({ process: { state, outputs: { x: 1 }, err: null }, tasks: [] });

  /** A client whose processes.state answers (or throws) from `script`, in order; processes.get returns the latest detail. */
  function scripted(script: Array<unknown>) {
    let i = 0;
    let latest: unknown;
    const state = async () => {
      const step = script[Math.min(i++, script.length - 1)];
      if (step instanceof Error) throw step;
      latest = step;
      return { state: (step as ReturnType<typeof detail>).process.state };
    };
    return { processes: { state: { query: state }, get: { query: async () => latest } } } as unknown as ApiClient;
  }

  it('backs off (100, 200, 400 … ms), rides out a few unreachable polls, and ends with the final line', async () => {
    const sleeps: number[] = [];
    const lines: string[] = [];
    const client = scripted([refused, detail('running'), refused, detail('running'), detail('running'), detail('completed')]);
    const code = await waitForEnd(client, connection, 'p1', (l) => lines.push(l), { sleep: async (ms) => void sleeps.push(ms) });
    expect(code).toBe(0);
    expect(sleeps).toEqual([100, 200, 400, 800, 1600]);
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ event: 'complete', state: 'completed', outputs: { x: 1 }, error: null }]);
  });

  it('gives up after 5 unreachable polls in a row with server.unreachable', async () => {
    const client = scripted([refused]);
    await expect(waitForEnd(client, connection, 'p1', () => undefined, { sleep: async () => undefined })).rejects.toMatchObject({ code: 'server.unreachable', exit: 4 });
  });

  it('stops at once on a failure a retry cannot fix (process.not_found)', async () => {
    const notFound = Object.assign(new Error('x'), { data: { code: 'process.not_found', message: "process 'p1' does not exist" } });
    let sleeps = 0;
    const client = scripted([notFound, detail('completed')]);
    await expect(waitForEnd(client, connection, 'p1', () => undefined, { sleep: async () => void sleeps++ })).rejects.toMatchObject({ code: 'process.not_found', exit: 6 });
    expect(sleeps).toBe(0);
  });

  it('caps the delay at 2 s and ends with a waiting line at the deadline', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const lines: string[] = [];
    const client = scripted([detail('running')]);
    const code = await waitForEnd(client, connection, 'p1', (l) => lines.push(l), {
      timeoutMs: 10_000,
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    expect(code).toBe(3);
    expect(sleeps).toEqual([100, 200, 400, 800, 1600, 2000, 2000, 2000, 900]);
    expect(JSON.parse(lines[0])).toMatchObject({ event: 'waiting', state: 'running', tasks: [] });
  });
});

describe('secrets', () => {
  // Registered last: vitest runs a file's tests in order, so every output above is collected.
  it('no output of any run contains a token', () => {
    expect(outputs.length).toBeGreaterThan(40);
    for (const text of outputs) {
      expect(text).not.toContain(tokens.ops);
      expect(text).not.toContain(tokens.watcher);
    }
  });
});
