/**
 * Required answers (issue 17 item 6): an interrupt act whose params' `schema.required` names an
 * answer refuses `tasks.complete` / `tasks.submit` when that answer is missing, null, empty or only
 * white space — `action.answer_required`, a sentence naming the field — and nothing changes: the
 * task still waits, the variables are as they were. Over real HTTP on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQL_BACKENDS } from './helpers/databases.ts';
import { apiError, startTestServer, waitingTask, type TestServer } from './helpers/server.ts';

const model = `id: answers
name: Required answers
inputs: { amount: 5 }
steps:
  - id: manager
    acts:
      - uses: acts.core.irq
        key: approve
        params: { title: 'Approve {{ amount }}', schema: { required: [approved_by, 42] } }
        outputs: { approved_by: null, note: '' }
  - id: director
    acts:
      - { uses: acts.core.irq, key: again, params: { title: 'Manager {{ approved_by }}' }, outputs: { note: '' } }
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

  it('refuses a missing, null, empty or blank required answer with action.answer_required naming the field; nothing changes', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'answers' });
    const before = await waiting(pid, 'approve');
    const tid = before.task!.tid;
    const op = t.as('operator');
    for (const approved_by of [undefined, null, '', '  \t\n']) {
      const options = approved_by === undefined ? { note: 'x' } : { approved_by, note: 'x' };
      for (const call of [op.tasks.complete, op.tasks.submit]) {
        const err = await apiError(call.mutate({ pid, tid, options }));
        expect(err, JSON.stringify(approved_by)).toMatchObject({ code: 'action.answer_required', httpStatus: 400, details: { fields: ['approved_by'] } });
        expect(err.message).toMatch(/needs an answer for 'approved_by'.*required/);
      }
    }
    const after = await waiting(pid, 'approve');
    expect(after.task?.tid).toBe(tid);
    expect(after.task?.data).toEqual(before.task?.data);
    expect(after.detail.variables).toEqual(before.detail.variables);
    expect(after.detail.variables).not.toHaveProperty('approved_by');
    expect(after.detail.tasks.some((x) => x.key === 'again')).toBe(false);

    // a real answer goes through; an act without required answers takes an empty one
    await op.tasks.complete.mutate({ pid, tid, options: { approved_by: 'bob', note: '' } });
    const next = await waiting(pid, 'again');
    expect(next.task?.params).toMatchObject({ title: 'Manager bob' });
    await op.tasks.complete.mutate({ pid, tid: next.task!.tid, options: { note: '' } });
    await t.engine.idle();
    expect((await t.as('viewer').processes.get.query({ pid })).process.state).toBe('completed');
  });
});
