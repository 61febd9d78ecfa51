/**
 * Remote workers (issue 13 item 6) over real HTTP on SQLite and PostgreSQL: external packages
 * declared by designers (bad names and schemas coded), listed as external, their params checked
 * at deploy; their acts wait out of the inbox until the acts-worker client completes or fails
 * them (catches see the ecode); a lapsed lease hands the act to the next poll and the old lease's
 * answer is refused; a worker child process killed with SIGKILL mid-act has its act handed to a
 * second worker after the lease.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, type Job } from '../worker/acts-worker.ts';
import { apiError, rawCall, startTestServer, type TestServer } from './helpers/server.ts';

const SCHEMA = { type: 'object', required: ['n'], properties: { n: { type: 'number' } } };

const FLOW = `id: doubling
steps:
  - id: s1
    acts:
      - uses: ext.double
        key: double
        params: { n: '{{ n }}' }
        catches:
          - { on: too_big, steps: [{ id: caught, acts: [{ uses: acts.transform.set, key: note, params: { caught: true } }] }] }
`;

/** Waits for `check` to hold (no fixed sleeps: the machine may be busy). */
async function until<T>(check: () => Promise<T | undefined | null | false>, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(['sqlite', 'postgresql'] as const)('remote workers on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend });
    await server.as('designer').packages.register.mutate({ name: 'ext.double', desc: 'Doubles n', schema: SCHEMA });
    await server.as('designer').models.deploy.mutate({ source: FLOW });
  });
  afterAll(async () => {
    await server?.close();
  });

  const state = async (pid: string) => (await server.as('viewer').processes.get.query({ pid })).process.state;
  const task = async (pid: string, key: string) => (await server.as('viewer').processes.get.query({ pid })).tasks.find((t) => t.key === key);
  /** Runs an acts-worker as `user` until process `pid` completed; the jobs it got. */
  const workUntilDone = async (pid: string, user: string, answer: (job: Job) => Record<string, unknown>): Promise<Job[]> => {
    const seen: Job[] = [];
    // a short lease: a job leased just as the worker stops is free again soon for the next test
    const worker = createWorker({ url: server.url, token: server.tokens[user], packages: ['ext.double'], leaseSecs: 2, handler: (job) => (seen.push(job), answer(job)) });
    worker.start();
    try {
      await until(async () => (await state(pid)) === 'completed', `a worker to complete ${pid}`);
    } finally {
      await worker.stop();
    }
    return seen;
  };

  it('refuses bad declarations with a code and a sentence', async () => {
    const designer = server.as('designer');
    expect(await apiError(designer.packages.register.mutate({ name: 'Ext Double', schema: SCHEMA }))).toMatchObject({ code: 'package.invalid', message: expect.stringMatching(/dotted lowercase/) });
    expect(await apiError(designer.packages.register.mutate({ name: 'acts.core.irq', schema: SCHEMA }))).toMatchObject({ code: 'package.invalid', message: expect.stringMatching(/engine's own/) });
    expect(await apiError(designer.packages.register.mutate({ name: 'ext.bad', schema: [] }))).toMatchObject({ code: 'package.invalid', message: expect.stringMatching(/JSON Schema object/) });
    expect(await apiError(designer.packages.register.mutate({ name: 'ext.bad', schema: { type: 'nonsense' } }))).toMatchObject({ code: 'package.invalid' });
    expect((await apiError(server.as('operator').packages.register.mutate({ name: 'ext.x', schema: SCHEMA }))).httpStatus).toBe(403);
    expect(await apiError(server.as('operator').workers.poll.mutate({ packages: ['acts.core.irq'], waitSecs: 0 }))).toMatchObject({ code: 'package.not_external' });
    expect((await apiError(server.as('viewer').workers.poll.mutate({ packages: ['ext.double'], waitSecs: 0 }))).httpStatus).toBe(403);
    expect(await apiError(server.as('operator').workers.complete.mutate({ lease: 'nothing.1', outputs: {} }))).toMatchObject({ code: 'worker.lease_lost' });
  });

  it('lists the package as external and checks its params at deploy', async () => {
    const listed = await server.as('viewer').packages.list.query();
    expect(listed.rows.find((p) => p.id === 'ext.double')).toMatchObject({ external: true, built_in: false, schema: SCHEMA, desc: 'Doubles n' });
    expect(listed.rows.find((p) => p.id === 'acts.core.irq')).toMatchObject({ external: false });
    const bad = FLOW.replace("{ n: '{{ n }}' }", "{ n: 'two' }").replace('id: doubling', 'id: bad-doubling');
    const refused = await apiError(server.as('designer').models.deploy.mutate({ source: bad }));
    expect(refused.code).toBe('model.invalid');
    expect(JSON.stringify(refused.details)).toMatch(/must be number/);
  });

  it('a worker completes the act with its outputs; the act is never in the inbox', async () => {
    const { pid } = await server.as('operator').processes.start.mutate({ mid: 'doubling', inputs: { n: 21 } });
    await until(async () => (await task(pid, 'double'))?.state === 'interrupted', 'the act to wait');
    expect((await server.as('admin').inbox.list.query()).rows.filter((r) => r.pid === pid)).toEqual([]);
    const seen = await workUntilDone(pid, 'operator', (job) => ({ doubled: (job.params as { n: number }).n * 2 }));
    expect(seen).toEqual([expect.objectContaining({ pid, package: 'ext.double', params: { n: 21 }, attempt: 1 })]);
    expect((await task(pid, 'double'))?.data).toMatchObject({ doubled: 42 });
  });

  it("a worker's failure fails the act with its ecode, and the act's catch sees it", async () => {
    const { pid } = await server.as('operator').processes.start.mutate({ mid: 'doubling', inputs: { n: 1e9 } });
    const { job } = await until(() => server.as('operator').workers.poll.mutate({ packages: ['ext.double'], waitSecs: 5 }).then((r) => (r.job ? r : null)), 'a job');
    expect(job).toMatchObject({ pid, attempt: 1 });
    await server.as('operator').workers.fail.mutate({ lease: job!.lease, ecode: 'too_big', message: 'n is too big' });
    await until(async () => (await state(pid)) === 'completed', 'the process to complete');
    expect(await task(pid, 'note')).toMatchObject({ state: 'completed' });
  });

  it('a lapsed lease hands the act to the next poll; the old lease is refused', async () => {
    const operator = server.as('operator');
    const { pid } = await operator.processes.start.mutate({ mid: 'doubling', inputs: { n: 2 } });
    const first = (await until(() => operator.workers.poll.mutate({ packages: ['ext.double'], waitSecs: 5, leaseSecs: 1 }).then((r) => r.job), 'a job'))!;
    const second = (await until(() => operator.workers.poll.mutate({ packages: ['ext.double'], waitSecs: 5, leaseSecs: 30 }).then((r) => r.job), 'the job again'))!;
    expect(first).toMatchObject({ pid, attempt: 1 });
    expect(second).toMatchObject({ pid, tid: first.tid, attempt: 2 });
    expect(await apiError(operator.workers.extend.mutate({ lease: first.lease }))).toMatchObject({ code: 'worker.lease_lost' });
    expect(await apiError(operator.workers.complete.mutate({ lease: first.lease, outputs: { doubled: 0 } }))).toMatchObject({ code: 'worker.lease_lost' });
    expect(await server.audit.last('worker.complete')).toMatchObject({ actor_name: 'operator', target: first.lease, result: 'worker.lease_lost' });
    await operator.workers.complete.mutate({ lease: second.lease, outputs: { doubled: 4 } });
    expect(await server.audit.last('worker.complete')).toMatchObject({ target: second.lease, result: 'ok', detail: { outputs: { doubled: 4 } } });
    await until(async () => (await state(pid)) === 'completed', 'the process to complete');
    expect(await apiError(operator.workers.complete.mutate({ lease: second.lease, outputs: {} }))).toMatchObject({ code: 'worker.lease_lost' });
    expect((await task(pid, 'double'))?.data).toMatchObject({ doubled: 4 });
  });

  it('the HTTP long-poll protocol as docs/server.md shows it: plain POSTs with a bearer token', async () => {
    const { pid } = await server.as('operator').processes.start.mutate({ mid: 'doubling', inputs: { n: 8 } });
    const headers = { authorization: `Bearer ${server.tokens.operator}` };
    const polled = await rawCall(server.url, 'workers.poll', { body: { packages: ['ext.double'], waitSecs: 10, leaseSecs: 30 }, headers });
    expect(polled.status).toBe(200);
    const { job } = polled.body.result!.data as { job: Job };
    expect(job).toMatchObject({ pid, package: 'ext.double', params: { n: 8 }, attempt: 1, lease: expect.any(String), lease_until: expect.any(Number) });
    expect((await rawCall(server.url, 'workers.extend', { body: { lease: job.lease, leaseSecs: 60 }, headers })).body.result?.data).toEqual({ lease_until: expect.any(Number) });
    const done = await rawCall(server.url, 'workers.complete', { body: { lease: job.lease, outputs: { doubled: 16 } }, headers });
    expect(done.body.result?.data).toEqual({ pid, tid: job.tid });
    const again = await rawCall(server.url, 'workers.complete', { body: { lease: job.lease, outputs: {} }, headers });
    expect(again.status).toBe(409);
    expect(again.body.error?.data.code).toBe('worker.lease_lost');
    await until(async () => (await state(pid)) === 'completed', 'the process to complete');
  });

  it('an act that stopped waiting (its process aborted) is handed to no worker', async () => {
    const { pid } = await server.as('operator').processes.start.mutate({ mid: 'doubling', inputs: { n: 3 } });
    await until(async () => (await task(pid, 'double'))?.state === 'interrupted', 'the act to wait');
    await server.as('operator').processes.abort.mutate({ pid });
    await until(async () => (await state(pid)) === 'aborted', 'the process to be aborted');
    expect(await server.as('operator').workers.poll.mutate({ packages: ['ext.double'], waitSecs: 0 })).toEqual({ job: null });
  });

  it('a worker process killed with SIGKILL mid-act: a second worker gets the act after the lease', async () => {
    const { pid } = await server.as('operator').processes.start.mutate({ mid: 'doubling', inputs: { n: 5 } });
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'hosts/worker-child.ts')], {
      env: { ...process.env, ACTS_URL: server.url, ACTS_TOKEN: server.tokens.alice, ACTS_PACKAGE: 'ext.double', ACTS_LEASE_SECS: '2' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await until(async () => out.includes(`job ${pid}`), 'the child to take the job', 60_000);
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    const seen = await workUntilDone(pid, 'bob', () => ({ doubled: 10 }));
    expect(out).toMatch(new RegExp(`job ${pid} \\S+ 1\\n`));
    expect(seen.map((job) => job.attempt)).toEqual([2]);
    expect((await task(pid, 'double'))?.data).toMatchObject({ doubled: 10 });
  });
});
