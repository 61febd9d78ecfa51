/**
 * Declared outcomes (issue 17 item 5): an interrupt act's params declare the answers a person may
 * choose (`outcomes`); `tasks.outcome` answers with one of them. An outcome without an ecode
 * completes the act with `outcome` recorded (a branch's `if` tests it); one with an ecode raises
 * it for `catches`; when nothing catches it the run ends `completed` on the outcome — not in
 * error, and the runs list can tell it apart. Refusals change nothing. Deploy refuses a malformed
 * `outcomes` with `model.bad_outcomes`, a sentence at each place. Over real HTTP on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_BACKENDS } from './helpers/databases.ts';
import { apiError, startTestServer, waitingTask, type TestServer } from './helpers/server.ts';

const model = `id: outcomes
name: Declared outcomes
inputs: { amount: 5 }
steps:
  - id: review
    acts:
      - uses: acts.core.irq
        key: decide
        params:
          title: 'Approve {{ amount }}?'
          schema: { required: [approved_by] }
          outcomes:
            approve: { label: Approve }
            reject: { label: Reject, ecode: rejected }
            needs_changes: { label: Needs changes, ecode: changes }
        outputs: { approved_by: null }
        catches:
          - on: changes
            steps: [ { id: rework, acts: [ { uses: acts.core.irq, key: rework } ] } ]
  - id: route
    branches:
      - id: approved
        if: outcome == 'approve'
        steps: [ { id: pay, acts: [ { uses: acts.core.irq, key: pay } ] } ]
      - id: other
        else: true
        steps: [ { id: after_rework, acts: [ { uses: acts.core.irq, key: after_rework } ] } ]
`;

describe.each(SQL_BACKENDS)('on %s', (backend) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: model });
  });
  afterAll(async () => {
    await t?.close();
  });

  const waiting = (pid: string, key: string) => waitingTask(t, pid, key);

  async function startAt(key: string) {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'outcomes' });
    const { task } = await waiting(pid, key);
    return { pid, tid: task!.tid };
  }

  it('refuses an undeclared or missing outcome, and an outcome on an act without outcomes; nothing changes', async () => {
    const { pid, tid } = await startAt('decide');
    const before = await waiting(pid, 'decide');
    const op = t.as('operator');
    const unknown = await apiError(op.tasks.outcome.mutate({ pid, tid, options: { outcome: 'maybe' } }));
    expect(unknown).toMatchObject({ code: 'action.unknown_outcome', httpStatus: 400, details: { outcomes: ['approve', 'reject', 'needs_changes'] } });
    expect(unknown.message).toMatch(/has no outcome 'maybe': choose one of 'approve', 'reject', 'needs_changes'/);
    expect(await apiError(op.tasks.outcome.mutate({ pid, tid, options: {} }))).toMatchObject({ code: 'action.invalid_options' });
    // a continuing outcome is a complete: the required answer still applies
    expect(await apiError(op.tasks.outcome.mutate({ pid, tid, options: { outcome: 'approve', approved_by: ' ' } }))).toMatchObject({ code: 'action.answer_required' });
    const after = await waiting(pid, 'decide');
    expect(after.task?.tid).toBe(tid);
    expect(after.detail.variables).toEqual(before.detail.variables);

    await op.tasks.outcome.mutate({ pid, tid, options: { outcome: 'approve', approved_by: 'bob' } });
    const pay = await waiting(pid, 'pay');
    const refused = await apiError(op.tasks.outcome.mutate({ pid, tid: pay.task!.tid, options: { outcome: 'approve' } }));
    expect(refused).toMatchObject({ code: 'action.refused' });
    expect(refused.message).toMatch(/declares no outcomes/);
  });

  it('an outcome without an ecode completes the act with the outcome recorded; a branch tests it', async () => {
    const { pid, tid } = await startAt('decide');
    await t.as('operator').tasks.outcome.mutate({ pid, tid, options: { outcome: 'approve', approved_by: 'bob' } });
    const { detail, task } = await waiting(pid, 'pay');
    expect(task).toBeDefined();
    expect(detail.tasks.find((x) => x.tid === tid)).toMatchObject({ state: 'completed', outputs: { approved_by: 'bob', outcome: 'approve' } });
    expect(detail.variables).toMatchObject({ outcome: 'approve', approved_by: 'bob' });
    expect(detail.process.state).toBe('running');
  });

  it("an outcome's ecode goes to the catch that takes it", async () => {
    const { pid, tid } = await startAt('decide');
    await t.as('operator').tasks.outcome.mutate({ pid, tid, options: { outcome: 'needs_changes' } });
    const { detail, task } = await waiting(pid, 'rework');
    expect(task).toBeDefined();
    expect(detail.tasks.find((x) => x.tid === tid)?.data).toMatchObject({ ecode: 'changes', outcome: 'needs_changes' });
    expect(detail.process.state).toBe('running');
  });

  it('an uncaught ecode of an outcome ends the run on the outcome: completed, not an error', async () => {
    const { pid, tid } = await startAt('decide');
    await t.as('operator').tasks.outcome.mutate({ pid, tid, options: { outcome: 'reject', message: 'too dear' } });
    await t.engine.idle();
    const { process, tasks } = await t.as('viewer').processes.get.query({ pid });
    expect(process).toMatchObject({ state: 'completed', outcome: 'reject', err: null, outputs: { outcome: 'reject' } });
    expect(tasks.find((x) => x.tid === tid)?.err).toMatchObject({ ecode: 'rejected', message: 'too dear', outcome: 'reject' });
    expect(tasks.some((x) => x.key === 'pay' || x.key === 'after_rework')).toBe(false);

    // the list (read from the store) tells it apart; errors do not count it
    const viewer = t.as('viewer');
    const ended = await viewer.processes.list.query({ mid: 'outcomes', outcome: true });
    expect(ended.rows.map((r) => [r.pid, r.state, r.outcome])).toEqual([[pid, 'completed', 'reject']]);
    expect((await viewer.processes.list.query({ mid: 'outcomes', state: 'error' })).count).toBe(0);
    expect((await viewer.processes.list.query({ mid: 'outcomes', outcome: false })).rows.some((r) => r.pid === pid)).toBe(false);
    // a finished run takes no more answers
    expect(await apiError(t.as('operator').tasks.outcome.mutate({ pid, tid, options: { outcome: 'approve' } }))).toMatchObject({ code: 'action.refused' });
  });

  it('deploy refuses malformed outcomes with model.bad_outcomes, a sentence at each place', async () => {
    const bad = model.replace('reject: { label: Reject, ecode: rejected }', "'not ok': { ecode: '', colour: red }").replace('id: outcomes', 'id: bad_outcomes');
    const err = await apiError(t.as('designer').models.deploy.mutate({ source: bad }));
    expect(err.code).toBe('model.invalid');
    const problems = (err.details ?? []) as Array<{ code: string; path: string; message: string }>;
    const at = 'steps[0].acts[0].params.outcomes["not ok"]';
    // in document order (the ecode is written before the unknown field)
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['model.bad_outcomes', at],
      ['model.bad_outcomes', `${at}.ecode`],
      ['model.bad_outcomes', `${at}.colour`],
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      "outcome name 'not ok' is not a word: use letters, digits and _ (not a digit first), e.g. needs_changes",
      "outcome 'not ok': `ecode` is the non-empty code it raises for `catches`; leave it out to complete the act instead",
      "outcome 'not ok' has an unknown field 'colour': an outcome takes `label`, `ecode` and `comment`",
    ]);
    const empty = await apiError(t.as('designer').models.deploy.mutate({ source: model.replace(/outcomes:\n(\s+\w+: .*\n){3}/, 'outcomes: {}\n').replace('id: outcomes', 'id: no_outcomes') }));
    expect((empty.details as Array<{ code: string; message: string }>).map((p) => [p.code, p.message])).toEqual([
      ['model.bad_outcomes', expect.stringMatching(/^`outcomes` declares no outcome/)],
    ]);
  });
});
