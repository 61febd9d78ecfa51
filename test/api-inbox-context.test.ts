/**
 * The context of an inbox task (issue 17 item 6): `inbox.form` answers the run's start inputs and
 * the variables visible at the task, bounded — a long value arrives cut to a `$truncated` marker
 * with its size, a list holds at most CONTEXT_ENTRIES keys and counts the rest, private keys and
 * variables still equal to their input are left out; an act that names its `context` shows those
 * variables alone, in its order. Over real HTTP on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_ENTRIES, CONTEXT_VALUE_BYTES } from '../server/api/task-context.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const model = `id: context
name: Context
inputs: { amount: 120, requester: alice, attachment: '' }
steps:
  - id: prepare
    acts:
      - uses: acts.transform.set
        params: { cost_center: CC-42, amount: 150, __secret: hidden }
  - id: manager
    acts:
      - { uses: acts.core.irq, key: approve, params: { title: 'Approve {{ amount }}' }, outputs: { approved_by: null } }
`;

/** The same process with the variables its approval shows named by the model (`params.context`). */
const marked = model
  .replace('id: context\nname: Context', 'id: context-marked\nname: Context marked')
  .replace("params: { title: 'Approve {{ amount }}' }", "params: { title: 'Approve {{ amount }}', context: [requester, cost_center, not_set, __secret, requester] }");

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: model });
  await t.as('designer').models.deploy.mutate({ source: marked });
});
afterAll(async () => {
  await t?.close();
});

async function openForm(inputs: Record<string, unknown>, mid = 'context') {
  const { pid } = await t.as('operator').processes.start.mutate({ mid, inputs });
  await t.engine.idle();
  const { tasks } = await t.as('viewer').processes.get.query({ pid });
  const task = tasks.find((x) => x.key === 'approve' && x.state === 'interrupted')!;
  const form = await t.as('operator').inbox.form.query({ pid, tid: task.tid });
  if (!form.found) throw new Error('no form');
  return form;
}

describe('inbox.form context', () => {
  it('answers the start inputs and the variables visible at the task; long values cut with their size', async () => {
    const attachment = 'x'.repeat(CONTEXT_VALUE_BYTES * 3);
    const form = await openForm({ requester: 'bob', attachment });
    expect(form.context.inputs).toEqual({
      values: { amount: 120, requester: 'bob', attachment: { $truncated: true, bytes: attachment.length + 2, preview: expect.stringMatching(/^"x+$/) } },
      omitted: 0,
    });
    expect((form.context.inputs.values.attachment as { preview: string }).preview.length).toBeLessThanOrEqual(200);
    expect(form.context.variables.values).toMatchObject({ cost_center: 'CC-42', amount: 150 });
    expect(form.context.variables.values).not.toHaveProperty('__secret');
    expect(form.context.variables.values).not.toHaveProperty('requester');
  });

  it('shows the variables the act marks as its context, in its order, and no others', async () => {
    expect(marked).toContain('context: [requester');
    const form = await openForm({ requester: 'carol' }, 'context-marked');
    expect(Object.entries(form.context.variables.values)).toEqual([
      ['requester', 'carol'],
      ['cost_center', 'CC-42'],
    ]);
    expect(form.context.inputs.values).toMatchObject({ amount: 120, requester: 'carol' });
  });

  it('holds at most CONTEXT_ENTRIES keys a list and counts the rest', async () => {
    const many = Object.fromEntries(Array.from({ length: CONTEXT_ENTRIES + 5 }, (_, i) => [`k${i}`, i]));
    const form = await openForm(many);
    expect(Object.keys(form.context.inputs.values)).toHaveLength(CONTEXT_ENTRIES);
    expect(form.context.inputs.omitted).toBe(8);
  });
});
