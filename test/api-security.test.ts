/**
 * The expression sandbox is unreachable from API input: values that callers send (start inputs,
 * action options, process variables) are data — a `{{ … }}` in them is never evaluated, however
 * the model later uses them; only the deployed model's own expressions run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.ts';

const MODEL = `id: echo
inputs: { note: '' }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: ask, params: { title: 'Note: {{ note }}' } }
  - id: s2
    acts:
      - { uses: acts.transform.set, params: { copy: '{{ note }}', answer: '{{ reply }}' } }
`;

const HOSTILE = "{{ (() => { throw new Error('evaluated') })() }}";
const ARITHMETIC = '{{ 6 * 7 }}';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.as('designer').models.deploy.mutate({ source: MODEL });
});
afterAll(async () => {
  await t?.close();
});

describe('API input never reaches the expression sandbox', () => {
  it('start inputs, action options and set-vars values stay literal text', async () => {
    const { pid } = await t.as('operator').processes.start.mutate({ mid: 'echo', inputs: { note: ARITHMETIC } });
    await t.engine.idle();
    const ask = (await t.as('viewer').processes.get.query({ pid })).tasks.find((x) => x.key === 'ask' && x.state === 'interrupted')!;
    expect(ask.params).toEqual({ title: `Note: ${ARITHMETIC}` });

    await t.as('operator').processes.setVars.mutate({ pid, vars: { extra: HOSTILE } });
    await t.as('operator').tasks.complete.mutate({ pid, tid: ask.tid, options: { reply: HOSTILE } });
    await t.engine.idle();
    const detail = await t.as('viewer').processes.get.query({ pid });
    expect(detail.process.state).toBe('completed');
    expect(detail.variables).toMatchObject({ note: ARITHMETIC, extra: HOSTILE, reply: HOSTILE, copy: ARITHMETIC, answer: HOSTILE });
  });

  it('validating a model only parses its expressions: a script that would throw when run validates and deploys', async () => {
    const source = MODEL.replace('id: echo', 'id: echo2').replace("'Note: {{ note }}'", `"${HOSTILE.replace(/"/g, '\\"')}"`);
    expect((await t.as('designer').models.validate.mutate({ source })).valid).toBe(true);
  });
});
