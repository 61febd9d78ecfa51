/**
 * Candidates, groups and claims in the operator inbox (issue: the operator inbox for real teams,
 * items 1 and 2): an interrupt act offered to a group is seen and answered by its members alone;
 * a task one of them claims is theirs (the others see who holds it, their claims and answers are
 * refused); release, delegate (answered by the delegate, or confirmed by the delegator), an
 * admin's reassignment; an act given to a user when it opens; every refusal with its code. Over
 * real HTTP, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import { startTestServer, USERS, type TestServer } from './helpers/server.ts';

const users: Record<string, Role[]> = { ...USERS, carol: ['operator'], erin: ['operator'], dave: ['operator'], ivy: ['operator'], vic: ['viewer'] };

const model = (id: string, params: string) => `id: ${id}
name: ${id}
steps:
  - id: decide
    acts:
      - { uses: acts.core.irq, key: approve, params: ${params}, outputs: { ok: null } }
`;

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    return (err as { data?: { code?: string }; shape?: { data?: { code?: string } } }).shape?.data?.code ?? (err as { data?: { code?: string } }).data?.code ?? String(err);
  }
  return 'no refusal';
}

describe.each(['sqlite', 'postgresql'] as const)('inbox candidates, groups and claims (%s)', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend, users });
    const admin = t.as('admin');
    await admin.groups.create.mutate({ name: 'finance', description: 'pays the bills' });
    await admin.groups.addMember.mutate({ name: 'finance', user: 'carol' });
    await admin.groups.addMember.mutate({ name: 'finance', user: 'erin' });
    for (const [id, params] of [
      ['to-finance', '{ title: Pay, candidate_groups: [finance] }'],
      ['confirmed', '{ title: Sign, candidate_groups: finance, delegation: confirm }'],
      ['given', '{ title: Given, assignee: carol, candidate_users: [erin] }'],
      ['late', "{ title: Late, candidate_users: [ivy], due: '2020-01-01', priority: 10 }"],
      ['soon', '{ title: Soon, candidate_users: [ivy], due: 2h, follow_up: 1h }'],
      ['urgent', '{ title: Urgent, candidate_users: [ivy], priority: 90 }'],
    ]) {
      await t.as('designer').models.deploy.mutate({ source: model(id, params) });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function open(mid: string) {
    const { pid } = await t.as('operator').processes.start.mutate({ mid });
    await t.engine.idle();
    const task = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'approve' && x.state === 'interrupted')!;
    return { pid, tid: task.tid };
  }
  const seen = async (who: string, view: 'mine' | 'groups' | 'all', pid: string) =>
    (await t.as(who).inbox.list.query({ view, limit: 200, offset: 0 })).rows.filter((r) => r.pid === pid).map((r) => r.hold?.holder ?? null);
  const stateOf = async (pid: string) => (await t.as('admin').processes.state.query({ pid })).state;

  it('a task offered to a group is seen and answered by its members alone; admins list the members', async () => {
    expect((await t.as('admin').groups.list.query()).rows).toMatchObject([{ name: 'finance', description: 'pays the bills', members: ['carol', 'erin'] }]);
    expect((await t.as('carol').groups.list.query()).rows).toMatchObject([{ name: 'finance', members: [] }]);
    const { pid, tid } = await open('to-finance');
    expect(await seen('carol', 'groups', pid)).toEqual([null]);
    expect(await seen('carol', 'all', pid)).toEqual([null]);
    expect(await seen('dave', 'all', pid)).toEqual([]);
    expect(await refusal(t.as('dave').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('auth.forbidden');
    expect(await refusal(t.as('dave').inbox.claim.mutate({ pid, tid }))).toBe('auth.forbidden');
    expect((await t.as('carol').inbox.form.query({ pid, tid })) as { mayAct?: boolean }).toMatchObject({ mayAct: true, assignment: { groups: ['finance'] } });
    await t.as('carol').tasks.complete.mutate({ pid, tid, options: { ok: true } });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
  });

  it("a claimed task is the holder's: the others see who holds it and cannot claim or answer it; release frees it", async () => {
    const { pid, tid } = await open('to-finance');
    expect((await t.as('carol').inbox.claim.mutate({ pid, tid })).hold).toMatchObject({ holder: 'carol', delegator: null });
    expect(await seen('carol', 'mine', pid)).toEqual(['carol']);
    expect(await seen('erin', 'groups', pid)).toEqual([]);
    expect(await seen('erin', 'all', pid)).toEqual(['carol']);
    expect(await refusal(t.as('erin').inbox.claim.mutate({ pid, tid }))).toBe('inbox.held');
    expect(await refusal(t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('inbox.held');
    expect(await refusal(t.as('erin').inbox.release.mutate({ pid, tid }))).toBe('inbox.held');
    expect((await t.as('erin').inbox.form.query({ pid, tid })) as { mayAct?: boolean }).toMatchObject({ mayAct: false, hold: { holder: 'carol' } });
    expect((await t.as('carol').inbox.release.mutate({ pid, tid })).hold.holder).toBeNull();
    expect(await refusal(t.as('carol').inbox.release.mutate({ pid, tid }))).toBe('inbox.not_holder');
    await t.as('erin').inbox.claim.mutate({ pid, tid });
    await t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: 'erin' } });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
    expect(await refusal(t.as('erin').inbox.claim.mutate({ pid, tid }))).toBe('inbox.not_open');
    // the task's history: who took it and who let it go
    const audit = await t.as('admin').audit.query.query({ target: `${pid}/${tid}`, limit: 50 });
    expect(audit.rows.map((e) => `${e.actor_name} ${e.action} ${e.result}`).reverse()).toEqual([
      'carol task.claim ok',
      'erin task.claim inbox.held',
      'erin task.complete inbox.held',
      'erin task.release inbox.held',
      'carol task.release ok',
      'carol task.release inbox.not_holder',
      'erin task.claim ok',
      'erin task.complete ok',
      'erin task.claim inbox.not_open',
    ]);
    // readers see it as the task's history, with who it went from
    const history = await t.as('viewer').tasks.history.query({ pid, tid });
    expect(history.rows.map((e) => `${e.actor_name} ${e.action} ${e.result} ${e.from}`).slice(-2)).toEqual(['erin task.claim inbox.held carol', 'carol task.claim ok null']);
  });

  it('two claims at once: one wins, the other is refused', async () => {
    const { pid, tid } = await open('to-finance');
    const results = await Promise.allSettled([t.as('carol').inbox.claim.mutate({ pid, tid }), t.as('erin').inbox.claim.mutate({ pid, tid })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(['inbox.held', 'inbox.stale']).toContain(await refusal(Promise.reject(lost.reason)));
    const holder = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ hold: { holder: string } }>).value.hold.holder;
    expect(await seen('admin', 'all', pid)).toEqual([holder]);
  });

  it('delegated: the delegate (not a candidate) answers; refusals name the reason', async () => {
    const { pid, tid } = await open('to-finance');
    expect(await refusal(t.as('carol').inbox.delegate.mutate({ pid, tid, to: 'dave' }))).toBe('inbox.not_holder');
    await t.as('carol').inbox.claim.mutate({ pid, tid });
    expect(await refusal(t.as('carol').inbox.delegate.mutate({ pid, tid, to: 'vic' }))).toBe('inbox.not_operator');
    expect(await refusal(t.as('carol').inbox.delegate.mutate({ pid, tid, to: 'nobody' }))).toBe('user.not_found');
    expect((await t.as('carol').inbox.delegate.mutate({ pid, tid, to: 'dave' })).hold).toMatchObject({ holder: 'dave', delegator: 'carol' });
    expect(await seen('dave', 'mine', pid)).toEqual(['dave']);
    expect(await seen('dave', 'all', pid)).toEqual(['dave']);
    expect(await refusal(t.as('carol').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('inbox.held');
    await t.as('dave').tasks.complete.mutate({ pid, tid, options: { ok: 'dave' } });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
  });

  it('delegation: confirm — the delegate proposes, the task returns to the delegator with the answer, who sends it', async () => {
    const { pid, tid } = await open('confirmed');
    await t.as('erin').inbox.claim.mutate({ pid, tid });
    await t.as('erin').inbox.delegate.mutate({ pid, tid, to: 'dave' });
    expect(await refusal(t.as('dave').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('inbox.confirm_required');
    expect(await refusal(t.as('erin').inbox.propose.mutate({ pid, tid, answer: { ok: 'erin' } }))).toBe('inbox.not_delegate');
    expect((await t.as('dave').inbox.propose.mutate({ pid, tid, answer: { ok: 'dave' } })).hold).toMatchObject({ holder: 'erin', delegator: null, proposal: { ok: 'dave', proposed_by: 'dave' } });
    expect((await t.as('erin').inbox.form.query({ pid, tid })) as { hold?: unknown }).toMatchObject({ hold: { holder: 'erin', proposal: { ok: 'dave' } }, delegation: 'confirm' });
    await t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: 'dave' } });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
  });

  it('a delegate who releases hands the task back to the delegator; an admin reassigns, others may not', async () => {
    const { pid, tid } = await open('to-finance');
    await t.as('carol').inbox.claim.mutate({ pid, tid });
    await t.as('carol').inbox.delegate.mutate({ pid, tid, to: 'dave' });
    expect((await t.as('dave').inbox.release.mutate({ pid, tid })).hold).toMatchObject({ holder: 'carol', delegator: null });
    expect(await refusal(t.as('carol').inbox.reassign.mutate({ pid, tid, to: 'erin' }))).toBe('auth.forbidden');
    expect((await t.as('admin').inbox.reassign.mutate({ pid, tid, to: 'erin' })).hold.holder).toBe('erin');
    expect(await seen('erin', 'mine', pid)).toEqual(['erin']);
    expect((await t.as('admin').inbox.reassign.mutate({ pid, tid, to: null })).hold.holder).toBeNull();
    expect(await seen('carol', 'groups', pid)).toEqual([null]);
    await t.as('admin').processes.abort.mutate({ pid });
  });

  it('an act given to a user opens in their hands; a candidate cannot answer it until it is released', async () => {
    const { pid, tid } = await open('given');
    expect(await seen('carol', 'mine', pid)).toEqual(['carol']);
    expect(await seen('erin', 'all', pid)).toEqual(['carol']);
    expect(await refusal(t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('inbox.held');
    await t.as('carol').inbox.release.mutate({ pid, tid });
    await t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: 'erin' } });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('completed');
  });

  it('a member taken off the group no longer sees or answers its tasks; unknown groups are refused', async () => {
    const { pid, tid } = await open('to-finance');
    const erin = (await t.as('admin').users.list.query()).rows.find((u) => u.name === 'erin')!;
    expect(await refusal(t.as('admin').users.setGroups.mutate({ id: erin.id, groups: ['finance', 'nope'] }))).toBe('group.not_found');
    expect(await refusal(t.as('admin').groups.create.mutate({ name: 'finance' }))).toBe('group.duplicate');
    expect(await refusal(t.as('admin').groups.create.mutate({ name: '-bad name' }))).toBe('input.invalid');
    await t.as('admin').groups.removeMember.mutate({ name: 'finance', user: 'erin' });
    expect(await seen('erin', 'all', pid)).toEqual([]);
    expect(await refusal(t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('auth.forbidden');
    await t.as('admin').groups.addMember.mutate({ name: 'finance', user: 'erin' });
    expect(await seen('erin', 'groups', pid)).toEqual([null]);
    await t.as('admin').processes.abort.mutate({ pid });
  });

  it('due dates and priorities order the inbox; the overdue ones are counted', async () => {
    const before = Date.now();
    const late = await open('late');
    const soon = await open('soon');
    const urgent = await open('urgent');
    const list = (input: Record<string, unknown>) => t.as('ivy').inbox.list.query({ limit: 50, offset: 0, ...input });
    const byDue = await list({ order: 'due' });
    expect(byDue.rows.map((r) => r.pid)).toEqual([late.pid, soon.pid, urgent.pid]);
    expect(byDue.rows.map((r) => [r.due_time === null ? null : typeof r.due_time, r.priority])).toEqual([
      ['number', 10],
      ['number', 50],
      [null, 90],
    ]);
    const soonRow = byDue.rows[1];
    expect(soonRow.due_time! - soonRow.start_time).toBe(2 * 3_600_000);
    expect(soonRow.follow_up! - soonRow.start_time).toBe(3_600_000);
    expect(byDue.rows[0].due_time).toBe(Date.parse('2020-01-01'));
    expect((await list({ order: 'priority' })).rows.map((r) => r.pid)).toEqual([urgent.pid, soon.pid, late.pid]);
    const overdue = await list({ overdue: true });
    expect([overdue.count, overdue.rows.map((r) => r.pid)]).toEqual([1, [late.pid]]);
    expect(soonRow.start_time).toBeGreaterThanOrEqual(before - 1000);
    for (const p of [late, soon, urgent]) await t.as('admin').processes.abort.mutate({ pid: p.pid });
  });

  it('comments: kept on the task, read by whoever opens a later task of the run, in the task history; refusals', async () => {
    const { pid, tid } = await open('to-finance');
    await t.as('carol').inbox.comment.mutate({ pid, tid, text: '  invoice 4711 is a duplicate? ' });
    await t.as('carol').inbox.claim.mutate({ pid, tid });
    // erin may still comment (she could answer it were it free); dave may not
    await t.as('erin').inbox.comment.mutate({ pid, tid, text: 'no, it is the corrected one' });
    expect(await refusal(t.as('dave').inbox.comment.mutate({ pid, tid, text: 'me too' }))).toBe('auth.forbidden');
    expect(await refusal(t.as('carol').inbox.comment.mutate({ pid, tid, text: '   ' }))).toBe('input.invalid');
    expect(await refusal(t.as('carol').inbox.comment.mutate({ pid, tid, text: 'x'.repeat(1001) }))).toBe('input.invalid');
    const { rows } = await t.as('viewer').inbox.comments.query({ pid });
    expect(rows.map((c) => [c.author, c.tid, c.text])).toEqual([
      ['carol', tid, 'invoice 4711 is a duplicate?'],
      ['erin', tid, 'no, it is the corrected one'],
    ]);
    const history = await t.as('viewer').tasks.history.query({ pid, tid });
    expect(history.rows.filter((e) => e.action === 'task.comment' && e.result === 'ok').map((e) => e.text)).toEqual(['no, it is the corrected one', 'invoice 4711 is a duplicate?']);
    await t.as('carol').tasks.complete.mutate({ pid, tid, options: { ok: true } });
    await t.engine.idle();
    expect(await refusal(t.as('carol').inbox.comment.mutate({ pid, tid, text: 'late' }))).toBe('inbox.not_open');
  });

  it('bulk decisions: 100 tasks approved at once; two answered elsewhere meanwhile and one held by another are reported, not overwritten', async () => {
    const opened = [];
    for (let i = 0; i < 100; i++) opened.push(await open('to-finance'));
    // after erin selected them: carol answers two, and claims a third
    await t.as('carol').tasks.complete.mutate({ ...opened[10], options: { ok: 'carol' } });
    await t.as('carol').tasks.complete.mutate({ ...opened[20], options: { ok: 'carol' } });
    await t.as('carol').inbox.claim.mutate(opened[30]);
    const answer = await t.as('erin').inbox.decideMany.mutate({ tasks: opened, action: 'complete', options: { ok: 'erin' } });
    expect([answer.done, answer.refused]).toEqual([97, 3]);
    expect(answer.results.map((r) => `${r.pid}/${r.tid}`)).toEqual(opened.map((o) => `${o.pid}/${o.tid}`));
    expect(answer.results.filter((r) => r.outcome === 'refused').map((r) => [r.pid, r.code])).toEqual([
      [opened[10].pid, 'action.refused'],
      [opened[20].pid, 'action.refused'],
      [opened[30].pid, 'inbox.held'],
    ]);
    await t.engine.idle();
    const okOf = async (o: { pid: string }) => (await t.as('viewer').processes.get.query({ pid: o.pid })).variables.ok;
    expect(await okOf(opened[10])).toBe('carol');
    expect(await okOf(opened[0])).toBe('erin');
    expect(await stateOf(opened[30].pid)).toBe('running');
    expect(await refusal(t.as('vic').inbox.decideMany.mutate({ tasks: [opened[30]], action: 'complete' }))).toBe('auth.forbidden');
    expect(await refusal(t.as('erin').inbox.decideMany.mutate({ tasks: [], action: 'complete' }))).toBe('input.invalid');
    await t.as('admin').processes.abort.mutate({ pid: opened[30].pid });
  }, 60_000);
});
