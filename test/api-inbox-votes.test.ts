/**
 * M-of-N and four-eyes approvals through the API (issue 15 item 5): members of the group an act
 * is offered to vote on it (`inbox.vote`), each once; the inbox item and the form show where the
 * votes stand; the second of two needed approvals completes it; every refusal has its code — a
 * user outside the group, a viewer, an admin who is not a member, a second vote, the requester,
 * a plain answer or a claim of such a task, a vote on a task without quorum or one already
 * decided. Votes are the task's history. Over real HTTP, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../vocab/roles.ts';
import { apiError, startTestServer, USERS, waitingTask, type TestServer } from './helpers/server.ts';

const users: Record<string, Role[]> = { ...USERS, ann: ['operator'], carol: ['operator'], erin: ['operator'], dave: ['operator'], ivy: ['operator'] };

const model = (id: string, params: string) => `id: ${id}
name: ${id}
steps:
  - id: decide
    acts:
      - { uses: acts.core.irq, key: approve, params: ${params}, outputs: { ok: null } }
  - id: after
    acts:
      - { uses: acts.core.irq, key: later }
`;

const refusal = async (call: Promise<unknown>): Promise<string> => (await apiError(call)).code;

describe.each(['sqlite', 'postgresql'] as const)('inbox votes (%s)', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend, users });
    const admin = t.as('admin');
    await admin.groups.create.mutate({ name: 'finance' });
    await admin.groups.create.mutate({ name: 'legal' });
    for (const u of ['ann', 'carol', 'erin', 'dave']) await admin.groups.addMember.mutate({ name: 'finance', user: u });
    await admin.groups.addMember.mutate({ name: 'legal', user: 'ivy' });
    for (const [id, params] of [
      ['two-of-three', '{ title: Pay, candidate_groups: [finance], quorum: { need: 2, exclude_requester: true } }'],
      ['everyone', '{ title: All, candidate_groups: finance, quorum: { need: all, exclude_requester: true } }'],
      ['legal-only', '{ title: Legal, candidate_groups: [legal], quorum: { need: 1 } }'],
      ['plain', '{ title: Plain, candidate_groups: [finance] }'],
    ]) {
      await t.as('designer').models.deploy.mutate({ source: model(id, params) });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A run started by `who` (the requester), and its waiting task. */
  async function open(mid: string, who = 'ann') {
    const { pid } = await t.as(who).processes.start.mutate({ mid });
    return { pid, tid: (await waitingTask(t, pid, 'approve')).task!.tid };
  }
  const row = async (who: string, pid: string) => (await t.as(who).inbox.list.query({ limit: 200, offset: 0 })).rows.find((r) => r.pid === pid);
  const stateOf = async (pid: string) => (await t.as('admin').processes.state.query({ pid })).state;

  it('2 of 3: each vote shows on the inbox item and the form; the second approval completes the act with who approved', async () => {
    const { pid, tid } = await open('two-of-three');
    expect((await row('erin', pid))?.votes).toMatchObject({ need: 2, approvals: 0 });
    expect(await t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'approve', comment: ' looks right ' })).toMatchObject({ approvals: 1, need: 2 });
    await t.engine.idle();
    expect((await row('erin', pid))?.votes).toMatchObject({ need: 2, approvals: 1, approvedBy: ['carol'], votes: [{ user: 'carol', comment: 'looks right' }] });
    expect(await t.as('erin').inbox.form.query({ pid, tid })).toMatchObject({ open: true, mayVote: true, votes: { approvals: 1, need: 2 } });
    expect(await t.as('ivy').inbox.form.query({ pid, tid })).toMatchObject({ mayVote: false, requester: false });
    expect(await t.as('ann').inbox.form.query({ pid, tid })).toMatchObject({ mayVote: false, requester: true });
    await t.as('erin').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    await t.engine.idle();
    const task = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.tid === tid)!;
    expect(task).toMatchObject({ state: 'completed', outputs: { outcome: 'approved', approved_by: ['carol', 'erin'] } });
    expect(await refusal(t.as('dave').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('inbox.not_open');
    // the votes are the task's history; the run graph reads where they stand
    const history = await t.as('viewer').tasks.history.query({ pid, tid });
    expect(history.rows.map((e) => `${e.actor_name} ${e.action} ${e.result} ${e.decision} ${e.text}`).reverse()).toEqual([
      'carol task.vote ok approve looks right',
      'erin task.vote ok approve null',
      'dave task.vote inbox.not_open approve null',
    ]);
    expect((await t.as('viewer').inbox.votes.query({ pid })).rows).toMatchObject([{ tid, state: 'completed', approvals: 2, need: 2 }]);
  });

  it('refusals: wrong user, wrong group, viewer, admin outside the group, twice, the requester, a plain answer, a claim, no quorum', async () => {
    const { pid, tid } = await open('two-of-three');
    expect(await refusal(t.as('ivy').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('auth.forbidden');
    expect(await refusal(t.as('bob').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('auth.forbidden');
    expect(await refusal(t.as('viewer').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('auth.forbidden');
    expect(await refusal(t.as('admin').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('auth.forbidden');
    expect(await refusal(t.as('ann').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('vote.requester_excluded');
    await t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    expect(await refusal(t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('vote.already_voted');
    expect(await refusal(t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'reject' }))).toBe('vote.already_voted');
    expect(await refusal(t.as('erin').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('vote.votes_decide');
    expect(await refusal(t.as('erin').tasks.skip.mutate({ pid, tid }))).toBe('vote.votes_decide');
    expect(await refusal(t.as('erin').inbox.claim.mutate({ pid, tid }))).toBe('vote.votes_decide');
    expect(await refusal(t.as('admin').inbox.reassign.mutate({ pid, tid, to: 'erin' }))).toBe('vote.votes_decide');
    // an admin may still end it, but not answer it for the voters
    expect(await refusal(t.as('admin').tasks.complete.mutate({ pid, tid, options: { ok: true } }))).toBe('vote.votes_decide');
    expect(await refusal(t.as('erin').inbox.vote.mutate({ pid, tid, decision: 'approve', comment: 'x'.repeat(1001) }))).toBe('input.invalid');
    // a task of another group
    const legal = await open('legal-only');
    expect(await refusal(t.as('carol').inbox.vote.mutate({ ...legal, decision: 'approve' }))).toBe('auth.forbidden');
    await t.as('ivy').inbox.vote.mutate({ ...legal, decision: 'approve' });
    await t.engine.idle();
    expect(await stateOf(legal.pid)).toBe('running');
    // a task not decided by votes
    const plain = await open('plain');
    expect(await refusal(t.as('carol').inbox.vote.mutate({ ...plain, decision: 'approve' }))).toBe('vote.not_quorum');
    expect((await t.as('admin').processes.get.query({ pid })).tasks.find((x) => x.tid === tid)?.state).toBe('interrupted');
    // the refusals are in the task's history too
    const audit = await t.as('admin').audit.query.query({ target: `${pid}/${tid}`, limit: 50 });
    expect(audit.rows.filter((e) => e.action === 'task.vote').map((e) => `${e.actor_name} ${e.result}`).reverse()).toEqual([
      'ivy auth.forbidden',
      'bob auth.forbidden',
      'admin auth.forbidden',
      'ann vote.requester_excluded',
      'carol ok',
      'carol vote.already_voted',
      'carol vote.already_voted',
      'erin input.invalid',
    ]);
    await t.as('admin').processes.abort.mutate({ pid });
  });

  it('one rejection rejects: the run ends on the outcome rejected', async () => {
    const { pid, tid } = await open('two-of-three');
    await t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    await t.as('dave').inbox.vote.mutate({ pid, tid, decision: 'reject', comment: 'not this month' });
    await t.engine.idle();
    expect(await t.as('admin').processes.state.query({ pid })).toMatchObject({ state: 'completed' });
    const task = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.tid === tid)!;
    expect(task).toMatchObject({ state: 'error', err: { ecode: 'rejected', message: 'rejected by dave: not this month' } });
  });

  it('need: all — every member when the first vote came, the requester left out', async () => {
    const { pid, tid } = await open('everyone');
    expect((await row('erin', pid))?.votes).toMatchObject({ need: null, approvals: 0 });
    await t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    expect((await row('erin', pid))?.votes).toMatchObject({ need: 3, approvals: 1 });
    await t.as('erin').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    await t.engine.idle();
    expect(await stateOf(pid)).toBe('running');
    expect((await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.tid === tid)?.state).toBe('interrupted');
    await t.as('dave').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    await t.engine.idle();
    expect((await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.tid === tid)?.state).toBe('completed');
  });

  it('need: all — a member who joins after the first vote may vote in place of one who left; the number stays', async () => {
    const { pid, tid } = await open('everyone');
    await t.as('carol').inbox.vote.mutate({ pid, tid, decision: 'approve' });
    await t.as('admin').groups.removeMember.mutate({ name: 'finance', user: 'dave' });
    await t.as('admin').groups.addMember.mutate({ name: 'finance', user: 'ivy' });
    try {
      expect(await refusal(t.as('dave').inbox.vote.mutate({ pid, tid, decision: 'approve' }))).toBe('auth.forbidden');
      expect((await t.as('ivy').inbox.vote.mutate({ pid, tid, decision: 'approve' })).need).toBe(3);
      await t.as('erin').inbox.vote.mutate({ pid, tid, decision: 'approve' });
      await t.engine.idle();
      expect((await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.tid === tid)).toMatchObject({ state: 'completed', outputs: { approved_by: ['carol', 'ivy', 'erin'] } });
    } finally {
      await t.as('admin').groups.removeMember.mutate({ name: 'finance', user: 'ivy' });
      await t.as('admin').groups.addMember.mutate({ name: 'finance', user: 'dave' });
    }
  });
});
