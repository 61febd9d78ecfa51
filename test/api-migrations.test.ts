/**
 * API: migrating running processes (server/api/routers/migrations.ts) over real HTTP on SQLite
 * and PostgreSQL — the proposed mapping, the check of a plan per process, a bulk migration with
 * its progress and per-run results, one process at a time, roles, the audit entry on each run
 * (which the run's history shows), and the guard that keeps a model with running processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/eventually.ts';

const V1 = `id: buy
inputs: { amount: 10 }
steps:
  - { id: review, name: Review, acts: [ { id: approve, name: Approve, uses: acts.core.irq, key: approve } ] }
  - { id: pay, acts: [ { uses: acts.core.msg, key: v1_pay } ] }
`;
const V2 = `id: buy
inputs: { amount: 10 }
steps:
  - { id: check, name: Review, acts: [ { id: approve, name: Approve, uses: acts.core.irq, key: approve } ] }
  - { id: notify, acts: [ { uses: acts.core.msg, key: v2_notify } ] }
  - { id: pay, acts: [ { uses: acts.core.msg, key: v2_pay } ] }
`;

describe.each(['sqlite', 'postgresql'] as const)('API migrations on %s', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: V1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function start(): Promise<string> {
    const proc = await t.as('operator').processes.start.mutate({ mid: 'buy', inputs: {} });
    await t.engine.idle();
    return proc.pid;
  }
  const processOf = async (pid: string) => t.as('viewer').processes.get.query({ pid });

  it('proposes a mapping, checks a plan, migrates in bulk with progress, audits each run; the model cannot be removed meanwhile', async () => {
    const pids = [await start(), await start(), await start()];
    await t.as('designer').models.deploy.mutate({ source: V2 });
    expect(await t.as('viewer').migrations.running.query({ mid: 'buy' })).toEqual({ mid: 'buy', versions: [{ ver: 1, running: 3 }] });
    expect((await apiError(t.as('designer').models.remove.mutate({ id: 'buy' }))).code).toBe('model.in_use');

    const plan = await t.as('viewer').migrations.plan.query({ mid: 'buy', from: 1, to: 2 });
    expect(plan.running).toBe(3);
    expect(plan.nodes.find((n) => n.id === 'review')).toMatchObject({ target: 'check', how: 'suggested' });
    expect(plan.nodes.find((n) => n.id === 'approve')).toMatchObject({ target: 'approve', how: 'same' });
    // an act with no id (a new random id in each version) is proposed by its package under its step's target, not the new step's
    const paid = plan.targets.find((n) => n.kind === 'act' && n.parent === 'pay')!;
    expect(plan.nodes.find((n) => n.kind === 'act' && n.parent === 'pay')).toMatchObject({ uses: 'acts.core.msg', target: paid.id, how: 'place' });
    expect(plan.nodes.filter((n) => n.how === 'none')).toEqual([]);

    // without the mapping every process is blocked at `review`
    const blocked = await t.as('designer').migrations.check.mutate({ mid: 'buy', from: 1, to: 2 });
    expect(blocked).toMatchObject({ total: 3, ready: 0 });
    expect(blocked.blocked[0].problems.map((p) => [p.code, p.nid])).toEqual([
      ['no_target', 'review'],
      ['parent_moved', 'approve'],
    ]);
    expect((await apiError(t.as('operator').migrations.check.mutate({ mid: 'buy', from: 1, to: 2 }))).code).toBe('auth.forbidden');

    const map = { review: 'check' };
    expect(await t.as('designer').migrations.check.mutate({ mid: 'buy', from: 1, to: 2, map })).toMatchObject({ total: 3, ready: 3, blocked: [] });
    const { job, total } = await t.as('designer').migrations.start.mutate({ mid: 'buy', from: 1, to: 2, map, pids: pids.slice(0, 2) });
    expect(total).toBe(2);
    const status = await eventually(
      async () => {
        const s = await t.as('designer').bulk.status.query({ job });
        return s.state === 'done' && s;
      },
      'the bulk migration to end',
      3000,
    );
    expect(status.counts).toEqual({ done: 2, skipped: 0, refused: 0 });
    expect((await processOf(pids[0])).process.model_ver).toBe(2);
    expect((await processOf(pids[2])).process.model_ver).toBe(1);
    expect(await t.audit.last('proc.bulk_migrate')).toMatchObject({ result: 'ok' });

    // the migrated run's history holds the switch
    const history = await t.as('viewer').history.run.query({ pid: pids[0] });
    expect(history.actions.rows.find((a) => a.action === 'proc.migrate')).toMatchObject({ actor: 'designer', result: 'ok', migration: { from: 1, to: 2 } });

    // one at a time; then it finishes on the new path
    expect(await t.as('designer').migrations.one.mutate({ pid: pids[2], to: 2, map })).toEqual({ pid: pids[2], from: 1, to: 2 });
    expect((await apiError(t.as('designer').migrations.one.mutate({ pid: pids[2], to: 2, map }))).code).toBe('process.migration_refused');
    expect(await t.audit.last('proc.migrate')).toMatchObject({ target: pids[2], result: 'process.migration_refused' });
    for (const pid of pids) {
      const approve = (await processOf(pid)).tasks.find((x) => x.key === 'approve' && x.state === 'interrupted')!;
      await t.as('operator').tasks.complete.mutate({ pid, tid: approve.tid, options: {} });
    }
    await t.engine.idle();
    for (const pid of pids) {
      const done = await processOf(pid);
      expect(done.process.state).toBe('completed');
      expect(done.tasks.map((x) => x.nid)).toContain('notify');
    }
    expect(await t.as('viewer').migrations.running.query({ mid: 'buy' })).toEqual({ mid: 'buy', versions: [] });
  });

  it('proposes the node in its place for elements without an id, whose generated ids change with every version', async () => {
    const v1 = `id: gen\nsteps:\n  - { id: s1, acts: [ { uses: acts.core.irq, key: ask } ] }\n`;
    const v2 = `id: gen\nsteps:\n  - { id: s1, acts: [ { uses: acts.core.irq, key: ask } ] }\n  - { id: s2, acts: [ { uses: acts.core.msg, key: told } ] }\n`;
    await t.as('designer').models.deploy.mutate({ source: v1 });
    const pid = (await t.as('operator').processes.start.mutate({ mid: 'gen', inputs: {} })).pid;
    await t.engine.idle();
    await t.as('designer').models.deploy.mutate({ source: v2 });
    const plan = await t.as('viewer').migrations.plan.query({ mid: 'gen', from: 1, to: 2 });
    const ask = plan.nodes.find((n) => n.kind === 'act')!;
    expect(ask.how).toBe('place');
    expect(ask.target).not.toBe(ask.id);
    const map = Object.fromEntries(plan.nodes.filter((n) => n.target && n.target !== n.id).map((n) => [n.id, n.target!]));
    expect(await t.as('designer').migrations.one.mutate({ pid, to: 2, map })).toEqual({ pid, from: 1, to: 2 });
    const open = (await processOf(pid)).tasks.find((x) => x.key === 'ask' && x.state === 'interrupted')!;
    expect(open.nid).toBe(ask.target);
  });
});
