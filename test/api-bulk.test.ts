/**
 * API: bulk actions on runs (issue 14 item 5) — `bulk.abort` selects by the runs list's filter
 * (model, version, failing node …) or by a list of run ids, works the runs through in the
 * background with a per-run result (aborted, already ended, refused with a code) polled with
 * `bulk.status`, and writes ONE audit entry naming every run; viewers are refused. Also the list's
 * new filters (version, failing node). Over real HTTP on SQLite, PostgreSQL and the memory store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, waitingTask, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/eventually.ts';

const order = (note: string) => `id: order
name: Order ${note}
steps:
  - id: s1
    acts:
      - { id: check, uses: acts.core.irq, key: check }
`;

describe.each(['sqlite', 'postgresql', 'memory'] as const)('bulk actions on %s', (backend) => {
  let t: TestServer;
  const v1: string[] = [];
  const v2: string[] = [];
  let failed: string;

  const start = async () => (await t.as('operator').processes.start.mutate({ mid: 'order' })).pid;
  const stateOf = async (pid: string) => (await t.as('viewer').processes.state.query({ pid })).state;
  const finished = (job: string, who = 'operator') =>
    eventually(
      async () => {
        const status = await t.as(who).bulk.status.query({ job });
        return status.state === 'done' && status;
      },
      `bulk action ${job} ended`,
      1500,
    );

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: order('one') });
    for (let i = 0; i < 4; i++) v1.push(await start());
    await t.as('designer').models.deploy.mutate({ source: order('two') });
    for (let i = 0; i < 2; i++) v2.push(await start());
    await t.engine.idle();
    // one v1 run failed at the act `check`, one v1 run was aborted already
    failed = v1[0];
    const { task } = await waitingTask(t, failed, 'check');
    await t.engine.act.error(failed, task!.tid, { ecode: 'E_CHECK', message: 'the check failed' });
    await t.as('operator').processes.abort.mutate({ pid: v1[1] });
    await t.engine.idle();
  });
  afterAll(() => t?.close());

  it('lists runs by model version and by the node a task of theirs failed at', async () => {
    const list = (more: Record<string, unknown>) => t.as('viewer').processes.list.query({ mid: 'order', ...more });
    expect((await list({ ver: 1 })).rows.map((r) => r.pid).sort()).toEqual([...v1].sort());
    expect((await list({ ver: 2 })).rows.map((r) => r.pid).sort()).toEqual([...v2].sort());
    const failing = await list({ failingNode: 'check' });
    expect([failing.count, failing.rows.map((r) => r.pid)]).toEqual([1, [failed]]);
    expect((await list({ failingNode: 's2' })).count).toBe(0);
    expect((await list({ failingNode: 'check', ver: 2 })).count).toBe(0);
  });

  it('aborts every run a filter matches, each with its result, as one audit entry', async () => {
    const { job, total } = await t.as('operator').bulk.abort.mutate({ filter: { mid: 'order', ver: 1 } });
    expect(total).toBe(4);
    const status = await finished(job);
    expect([status.processed, status.counts]).toEqual([4, { done: 2, skipped: 2, refused: 0 }]);
    const byPid = new Map(status.results.map((r) => [r.pid, r.outcome]));
    expect(byPid).toEqual(new Map([[v1[0], 'skipped'], [v1[1], 'skipped'], [v1[2], 'done'], [v1[3], 'done']]));
    expect(await stateOf(v1[2])).toBe('aborted');
    expect(await stateOf(v1[3])).toBe('aborted');
    expect(await stateOf(v2[0])).toBe('running'); // another version: not selected

    const entries = await t.audit.query({ action: 'proc.bulk_abort' });
    expect(entries.count).toBe(1);
    const [entry] = entries.rows;
    expect([entry.target, entry.result, entry.actor_name]).toEqual([`bulk:${job}`, 'ok', 'operator']);
    const detail = entry.detail as { pids: string[]; counts: unknown; total: number; selection: unknown };
    expect([...detail.pids].sort()).toEqual([...v1].sort());
    expect([detail.total, detail.counts, detail.selection]).toEqual([4, { done: 2, skipped: 2, refused: 0 }, { filter: { mid: 'order', ver: 1 } }]);
  });

  it('aborts a list of runs: an ended one is skipped, an unknown one refused with its code', async () => {
    const before = (await t.audit.query({ action: 'proc.bulk_abort' })).count;
    const { job } = await t.as('operator').bulk.abort.mutate({ pids: [v2[0], v1[2], 'no-such-run'] });
    const status = await finished(job);
    const results = Object.fromEntries(status.results.map((r) => [r.pid, r]));
    expect(results[v2[0]].outcome).toBe('done');
    expect(results[v1[2]].outcome).toBe('skipped');
    expect([results['no-such-run'].outcome, results['no-such-run'].code]).toEqual(['refused', 'process.not_found']);
    expect(await stateOf(v2[0])).toBe('aborted');
    expect(await stateOf(v2[1])).toBe('running');
    expect((await t.audit.query({ action: 'proc.bulk_abort' })).count).toBe(before + 1);
  });

  it('retries and fails the incidents of many runs; runs without one are skipped', async () => {
    const flaky = `id: flaky
incidents: true
inputs: { ok: false }
steps:
  - { id: s1, acts: [ { id: f1, uses: acts.transform.code, params: "if (!ok) throw new Error('not ok yet'); return { done: 1 }" } ] }
`;
    await t.as('designer').models.deploy.mutate({ source: flaky });
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) runs.push((await t.as('operator').processes.start.mutate({ mid: 'flaky', inputs: { ok: i === 0 } })).pid);
    await t.engine.idle();
    const [fine, fixable, hopeless] = runs;
    await t.as('operator').processes.setVars.mutate({ pid: fixable, vars: { ok: true } });
    const retried = await finished((await t.as('operator').bulk.retry.mutate({ pids: runs })).job);
    const outcomes = Object.fromEntries(retried.results.map((r) => [r.pid, r.outcome]));
    expect(outcomes).toEqual({ [fine]: 'skipped', [fixable]: 'done', [hopeless]: 'done' });
    await t.engine.idle();
    expect(await stateOf(fixable)).toBe('completed');
    // the retry of a run still not ok failed again: a new incident
    expect((await t.as('viewer').processes.summary.query({ pid: hopeless })).process.control.incidents).toHaveLength(1);
    const failed = await finished((await t.as('operator').bulk.fail.mutate({ pids: [hopeless, fixable] })).job);
    expect(Object.fromEntries(failed.results.map((r) => [r.pid, r.outcome]))).toEqual({ [hopeless]: 'done', [fixable]: 'skipped' });
    await t.engine.idle();
    expect(await stateOf(hopeless)).toBe('error');
    expect((await t.audit.query({ action: 'proc.bulk_retry' })).count).toBe(1);
    expect((await t.audit.query({ action: 'proc.bulk_fail' })).count).toBe(1);
  });

  it('pages the results of a status read', async () => {
    const { job } = await t.as('operator').bulk.abort.mutate({ pids: v1 });
    const all = await finished(job);
    const rest = await t.as('operator').bulk.status.query({ job, resultsFrom: 3 });
    expect([all.results.length, rest.resultsFrom, rest.results]).toEqual([4, 3, all.results.slice(3)]);
  });

  it('refuses viewers, and shows a job only to who started it (and admins)', async () => {
    expect((await apiError(t.as('viewer').bulk.abort.mutate({ pids: [v2[1]] }))).code).toBe('auth.forbidden');
    expect(await stateOf(v2[1])).toBe('running');
    const { job } = await t.as('alice').bulk.abort.mutate({ pids: [v1[2]] });
    await finished(job, 'alice');
    expect((await apiError(t.as('bob').bulk.status.query({ job }))).code).toBe('bulk.not_found');
    expect((await t.as('admin').bulk.status.query({ job })).state).toBe('done');
  });

  it('refuses a selection of more runs than one action takes, before doing anything, audited', async () => {
    const err = await apiError(t.as('operator').bulk.abort.mutate({ pids: Array.from({ length: 10_001 }, (_, i) => `p${i}`) }));
    expect([err.code, err.details]).toEqual(['bulk.too_many', { count: 10_001, max: 10_000 }]);
    const entry = await t.audit.last('proc.bulk_abort');
    expect([entry?.target, entry?.result]).toEqual(['bulk', 'bulk.too_many']);
    expect((await apiError(t.as('operator').bulk.status.query({ job: 'nope' }))).code).toBe('bulk.not_found');
  });
});
