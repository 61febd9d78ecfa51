/**
 * Step tests (docs/step-tests.md): one node of a model run alone on a throw-away engine — a passing
 * case, a failing expectation, an error case, an interrupt answered (and one left waiting or refused),
 * the wall-clock limit, and the saved cases' shape checks with their positions.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import { readCases, runCases, runOneNode, verdictOf } from '../server/runtime/step-tests/index.ts';
import { startPeer } from './helpers/http-peer.ts';

const ORDER = readFileSync(new URL('./fixtures/step-tests/order.yml', import.meta.url), 'utf8');

describe('running one node', () => {
  it('runs a step alone with the given inputs: its outputs, the variables, its messages; its `next` is not followed', async () => {
    const result = await runOneNode(ORDER, { node: 'compute', inputs: { price: 3, qty: 4 } });
    expect(result).toMatchObject({ node: 'compute', kind: 'step', end: 'completed', state: 'completed', outputs: { total: 12 }, error: null, waiting: [] });
    expect(result.vars).toMatchObject({ price: 3, qty: 4, total: 12 });
    const nodes = new Set(result.messages.map((m) => m.nid));
    expect(nodes.has('compute')).toBe(true);
    // neither the step before it nor the one `next` names ran
    expect(nodes.has('intro')).toBe(false);
    expect(nodes.has('approve')).toBe(false);
  });

  it('an error inside ends the run in error with the code and message', async () => {
    const result = await runOneNode(ORDER, { node: 'ship', inputs: { qty: 11 } });
    expect(result.end).toBe('error');
    expect(result.state).toBe('error');
    expect(result.error?.message).toContain('not enough stock');
  });

  it('an act waits for its answer, is answered by key from the case, and continues', async () => {
    const waiting = await runOneNode(ORDER, { node: 'ask_manager', inputs: { total: 5 } });
    expect(waiting.end).toBe('waiting');
    expect(waiting.waiting).toEqual([expect.objectContaining({ node: 'ask', key: 'ask_manager', uses: 'acts.core.irq', params: expect.objectContaining({ title: 'Approve 5?' }) })]);
    expect(waiting.error?.ecode).toBe('steptest.waiting');

    const answered = await runOneNode(ORDER, { node: 'approve', inputs: { total: 5 }, answers: { ask: { options: { approved_by: 'ann' } } } });
    expect(answered).toMatchObject({ end: 'completed', state: 'completed', waiting: [] });
    expect(answered.vars.approved_by).toBe('ann');
  });

  it('an answer the engine refuses leaves the act waiting and says why', async () => {
    const result = await runOneNode(ORDER, { node: 'ask', inputs: { total: 1 }, answers: { ask: { action: 'complete', options: {} } } });
    expect(result.end).toBe('waiting');
    expect(result.error?.ecode).toBe('action.answer_required');
  });

  it("a subflow act's child model is deployed from `models`, and the child's interrupts are answered too", async () => {
    const parent = readFileSync(new URL('../examples/subflow.yml', import.meta.url), 'utf8');
    const child = readFileSync(new URL('../examples/subflow-child.yml', import.meta.url), 'utf8');
    const models = async (mid: string) => (mid === 'subflow-child' ? child : undefined);
    const waiting = await runOneNode(parent, { node: 'prepare', answers: { init: { options: { v: 5 } } } }, { models });
    expect(waiting.waiting.map((w) => w.key)).toEqual(['child_task']);
    expect(waiting.error?.message).toContain("'child_task'");
    const done = await runOneNode(parent, { node: 'prepare', answers: { init: { options: { v: 5 } }, child_task: { options: { v: 6 } } } }, { models });
    expect(done).toMatchObject({ end: 'completed', vars: { v: 6 } });
  });

  it('a node the model does not have is invalid, not an exception', async () => {
    const result = await runOneNode(ORDER, { node: 'nope' });
    expect(result.end).toBe('invalid');
    expect(result.error?.ecode).toBe('steptest.invalid');
  });

  it('a loop inside the node ends in error at the step budget', async () => {
    const model = `id: loop\nsteps:\n  - id: outer\n    branches:\n      - id: b\n        if: 'true'\n        steps:\n          - { id: a, acts: [ { uses: acts.transform.set, params: { n: 1 } } ] }\n          - { id: c, next: a, acts: [ { uses: acts.transform.set, params: { m: 2 } } ] }\n`;
    const result = await runOneNode(model, { node: 'outer' });
    expect(result.end).toBe('error');
    expect(result.error?.message).toMatch(/step budget of 2000 tasks/);
    expect(result.messages).toHaveLength(200);
  }, 60_000);

  describe('the wall-clock limit', () => {
    const peer = startPeer();
    afterAll(async () => (await peer).close());

    it('a call that does not answer in time ends the run as a timeout', async () => {
      const { base, route } = await peer;
      route('/slow', () => undefined);
      const model = `id: slow\nsteps:\n  - id: call\n    acts: [ { uses: acts.core.http, params: { url: '${base}/slow', timeout: 60 } } ]\n`;
      const result = await runOneNode(model, { node: 'call' }, { limitMs: 800 });
      expect(result.end).toBe('timeout');
      expect(result.error?.ecode).toBe('steptest.timeout');
      expect(result.ms).toBeLessThan(20_000);
    });
  });
});

describe('verdicts', () => {
  it('runs every saved case of the model and judges each', async () => {
    const verdicts = await runCases(ORDER);
    expect(verdicts.map((v) => [v.name, v.pass, v.failures])).toEqual([
      ['multiplies', true, []],
      ['manager approves', true, []],
      ['too many fails', true, []],
    ]);
  });

  it('cases share `totalMs`: once it is used up the rest fail without running', async () => {
    const verdicts = await runCases(ORDER, { totalMs: 0 });
    expect(verdicts.map((v) => [v.pass, v.end, v.error?.ecode])).toEqual([
      [false, 'timeout', 'steptest.timeout'],
      [false, 'timeout', 'steptest.timeout'],
      [false, 'timeout', 'steptest.timeout'],
    ]);
    expect(verdicts[0].failures[0]).toMatch(/^not run: the saved step tests used up their time limit of 0 ms/);
  });

  it('a failing expectation names the key, the value and what was expected', async () => {
    const result = await runOneNode(ORDER, { node: 'compute', inputs: { price: 3, qty: 4 } });
    const verdict = verdictOf({ name: 'wrong', node: 'compute', expect: { outputs: { total: 13 }, vars: { price: 3 }, state: 'error' } }, result);
    expect(verdict.pass).toBe(false);
    expect(verdict.failures).toEqual(["the node ended completed, expected error", "output 'total' is 12, expected 13"]);
  });

  it('a node that fails without an expected error fails the case; the wrong code too', async () => {
    const result = await runOneNode(ORDER, { node: 'ship', inputs: { qty: 11 } });
    expect(verdictOf({ name: 'a', node: 'ship' }, result).failures[0]).toContain('the node failed');
    expect(verdictOf({ name: 'b', node: 'ship', expect: { error: 'stock.out' } }, result).failures[0]).toContain("expected the error 'stock.out'");
    expect(verdictOf({ name: 'c', node: 'ship', expect: { error: '' } }, result).pass).toBe(true);
  });
});

describe('the saved cases', () => {
  it('reads the cases of `tests:` (none when absent)', () => {
    expect(readCases(ORDER).map((c) => c.name)).toEqual(['multiplies', 'manager approves', 'too many fails']);
    expect(readCases('id: x\nsteps: []\n')).toEqual([]);
  });

  it('a malformed case is steptest.invalid with its path and line', () => {
    const source = 'id: x\nsteps: []\ntests:\n  - name: a\n    node: s\n  - name: b\n    nod: s\n    expect: { outputs: 3 }\n';
    let caught: unknown;
    try {
      readCases(source);
    } catch (err) {
      caught = err;
    }
    expect(ActError.is(caught) && caught.code).toBe('steptest.invalid');
    const problems = (caught as ActError).details as Array<{ path: string; message: string; position?: { line: number } }>;
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(['tests[1].node', 'tests[1].expect.outputs']));
    expect(problems.find((p) => p.path === 'tests[1].expect.outputs')?.position?.line).toBe(8);
  });

  it('two cases with one name are refused', () => {
    const source = 'id: x\nsteps: []\ntests:\n  - { name: a, node: s }\n  - { name: a, node: t }\n';
    expect(() => readCases(source)).toThrow(/two test cases are named 'a'/);
  });
});
