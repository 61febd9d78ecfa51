/**
 * API: controlling a process (server/api/routers/control.ts) over real HTTP on SQLite and
 * PostgreSQL — pause/resume, breakpoints and step over, an incident retried after fixing a
 * variable, a re-run from a step linked both ways; roles (viewers watch, operators act, designers
 * set breakpoints) and one audit entry per change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const line = `id: line
inputs: { n: 1 }
steps:
  - { id: s1, acts: [ { id: c1, uses: acts.transform.code, params: "return { m: n + 1 }" } ] }
  - { id: s2, acts: [ { uses: acts.core.irq, key: a2 } ] }
  - { id: s3, acts: [ { id: c3, uses: acts.transform.code, params: "return { total: m * 10 }" } ] }
`;

const flaky = `id: flaky
incidents: true
inputs: { ok: false }
steps:
  - { id: s1, acts: [ { id: f1, uses: acts.transform.code, params: "if (!ok) throw new Error('not ok yet'); return { done: 1 }" } ] }
`;

describe.each(['sqlite', 'postgresql'] as const)('API control on %s', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: line });
    await t.as('designer').models.deploy.mutate({ source: flaky });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function start(mid: string, inputs = {}): Promise<string> {
    const proc = await t.as('operator').processes.start.mutate({ mid, inputs });
    await t.engine.idle();
    return proc.pid;
  }

  const states = async (pid: string, nid: string) => (await t.as('viewer').processes.get.query({ pid })).tasks.filter((x) => x.nid === nid).map((x) => x.state);

  it('pause and resume; a viewer may not; each change is audited', async () => {
    const pid = await start('line');
    expect((await apiError(t.as('viewer').control.pause.mutate({ pid }))).code).toBe('auth.forbidden');
    const paused = await t.as('operator').control.pause.mutate({ pid });
    expect(paused.control.paused).toMatchObject({ reason: 'operator' });
    expect(await t.audit.last('proc.pause')).toMatchObject({ actor_name: 'operator', target: pid, result: 'ok' });
    expect((await apiError(t.as('operator').control.pause.mutate({ pid }))).code).toBe('action.refused');
    const resumed = await t.as('operator').control.resume.mutate({ pid });
    expect(resumed.control.paused).toBeNull();
  });

  it('a designer sets a breakpoint; the run stops there, steps over and resumes', async () => {
    const pid = await start('line');
    await t.as('designer').control.setBreakpoints.mutate({ pid, nodes: ['s3'] });
    expect(await t.audit.last('proc.set_breakpoints')).toMatchObject({ actor_name: 'designer', result: 'ok' });
    const a2 = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'a2' && x.state === 'interrupted')!;
    await t.as('operator').tasks.complete.mutate({ pid, tid: a2.tid, options: {} });
    await t.engine.idle();
    const detail = await t.as('viewer').processes.summary.query({ pid });
    expect(detail.process.control.paused).toMatchObject({ reason: 'breakpoint', nid: 's3' });
    expect(await states(pid, 's3')).toEqual(['none']);
    await t.as('operator').control.resume.mutate({ pid });
    await t.engine.idle();
    const done = await t.as('viewer').processes.get.query({ pid });
    expect(done.process.state).toBe('completed');
  });

  it('breakpoints for every new run of the latest version: a new run stops there; an older version is refused', async () => {
    expect((await apiError(t.as('viewer').control.setVersionBreakpoints.mutate({ mid: 'line', ver: 1, nodes: ['s2'] }))).code).toBe('auth.forbidden');
    const set = await t.as('designer').control.setVersionBreakpoints.mutate({ mid: 'line', ver: 1, nodes: ['s2'] });
    expect(set).toEqual({ mid: 'line', ver: 1, nodes: ['s2'] });
    expect(await t.audit.last('model.set_breakpoints')).toMatchObject({ actor_name: 'designer', target: 'line', result: 'ok' });
    const pid = await start('line');
    const paused = (await t.as('viewer').processes.summary.query({ pid })).process.control;
    expect(paused).toMatchObject({ breakpoints: ['s2'], paused: { reason: 'breakpoint', nid: 's2' } });
    expect((await apiError(t.as('designer').control.setVersionBreakpoints.mutate({ mid: 'line', ver: 7, nodes: [] }))).code).toBe('model.version_not_latest');
    await t.as('designer').control.setVersionBreakpoints.mutate({ mid: 'line', ver: 1, nodes: [] });
    expect(await t.as('viewer').control.versionBreakpoints.query({ mid: 'line' })).toEqual({ mid: 'line', ver: 1, nodes: [] });
    const free = await start('line');
    expect((await t.as('viewer').processes.summary.query({ pid: free })).process.control.paused).toBeNull();
    await t.as('operator').control.resume.mutate({ pid });
  });

  it('an incident: fixing the variable and retrying completes the run; fail ends it in error', async () => {
    const pid = await start('flaky');
    const incident = (await t.as('viewer').processes.summary.query({ pid })).process.control.incidents[0];
    expect(incident).toMatchObject({ nid: 'f1', message: expect.stringContaining('not ok yet') });
    await t.as('operator').control.retry.mutate({ pid, tid: incident.tid, vars: { ok: true } });
    await t.engine.idle();
    expect(await t.audit.last('proc.retry')).toMatchObject({ target: pid, result: 'ok' });
    expect((await t.as('viewer').processes.get.query({ pid })).process.state).toBe('completed');
    expect(await states(pid, 'f1')).toEqual(['error', 'completed']);

    const other = await start('flaky');
    const tid = (await t.as('viewer').processes.summary.query({ pid: other })).process.control.incidents[0].tid;
    await t.as('operator').control.fail.mutate({ pid: other, tid });
    await t.engine.idle();
    expect((await t.as('viewer').processes.get.query({ pid: other })).process.state).toBe('error');
  });

  it('re-run from a step: a new process on the same version, starting at that step with what the steps before it produced', async () => {
    const pid = await start('line', { n: 4 });
    const a2 = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'a2')!;
    await t.as('operator').tasks.complete.mutate({ pid, tid: a2.tid, options: {} });
    await t.engine.idle();
    expect((await apiError(t.as('operator').control.rerun.mutate({ pid, from: 'nope' }))).code).toBe('process.rerun_step');
    const rerun = await t.as('operator').control.rerun.mutate({ pid, from: 's3' });
    await t.engine.idle();
    const again = await t.as('viewer').processes.get.query({ pid: rerun.pid });
    expect(again.process.state).toBe('completed');
    expect(again.process.control.rerunOf).toEqual({ pid, from: 's3' });
    // s1 and s2 did not run again; s3 saw m = 5 from the original's s1
    expect(again.tasks.map((x) => x.nid)).not.toContain('s1');
    expect(again.tasks.find((x) => x.nid === 'c3')?.outputs).toEqual({ total: 50 });
    const links = await t.as('viewer').control.reruns.query({ pid });
    expect(links.rows).toMatchObject([{ pid: rerun.pid, from: 's3', state: 'completed' }]);
    expect(await t.audit.last('proc.rerun')).toMatchObject({ target: pid, result: 'ok' });
  });
});
