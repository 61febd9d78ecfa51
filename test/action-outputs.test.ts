/**
 * The outputs a client action closes an act with (issue 10, item 1): with code workers, their
 * templates are tried on the engine's thread for a short slice only and otherwise evaluated on a
 * worker before the action changes anything — a hostile `outputs` template no longer stalls the
 * event loop when an operator answers, and the outcome is the one the engine's thread gives. Also:
 * an outputs template that outlasts its trial slice keeps its value (it was swallowed as null).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';
import { longestStall } from './helpers/event-loop.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Runs about 30 ms on whichever thread evaluates it, then doubles `v`. */
const SLOW = "{{ (() => { const t = Date.now(); while (Date.now() - t < 30) {} return v * 2 })() }}";
const ENDLESS = '{{ (() => { while (true) {} })() }}';

const irq = (key: string, w: string) => `
      - uses: acts.core.irq
        key: ${key}
        outputs: { v: null, w: "${w}" }`;

const answers = (w: string) => `
id: answers
steps:
  - id: s1
    acts:${irq('first', w)}
  - id: s2
    acts:${irq('second', w)}
  - id: s3
    acts:${irq('third', w)}
  - id: s4
    acts:${irq('fifth', w)}
`;

/** Answers each act of `answers` with a different action; the messages each closing emitted. */
async function answerAll(harness: Harness): Promise<{ state: string; closed: Array<{ key: string; state: string; outputs: unknown }> }> {
  const pid = await harness.start('answers');
  await harness.settle();
  await harness.act('complete', 'first', { v: 1, w: 0 }, pid);
  await harness.settle();
  await harness.act('submit', 'second', { v: 2, w: 0 }, pid);
  await harness.settle();
  await harness.act('skip', 'third', { v: 3 }, pid);
  await harness.settle();
  await harness.act('abort', 'fifth', { v: 5 }, pid);
  await harness.settle();
  const closed = ['first', 'second', 'third', 'fifth'].map((key) => {
    const [m] = harness.find({ key, pid }).filter((x) => x.state !== 'created');
    return { key, state: m.state, outputs: m.outputs };
  });
  return { state: (await harness.proc(pid)).state, closed };
}

describe('outputs of acts closed by client actions, with code workers', () => {
  it('are the ones the engine thread gives, for complete, submit, skip and abort', { timeout: 60_000 }, async () => {
    const outcome = async (codeWorkers: number) => {
      h = await createHarness({ codeWorkers });
      await h.deploy(answers(SLOW));
      const result = await answerAll(h);
      await h.close();
      h = undefined;
      return result;
    };
    const here = await outcome(0);
    expect(here.state).toBe('aborted');
    expect(here.closed).toEqual([
      // complete and submit mark their options as outputs: those win over the evaluated template
      { key: 'first', state: 'completed', outputs: { v: 1, w: 0 } },
      { key: 'second', state: 'submitted', outputs: { v: 2, w: 0 } },
      { key: 'third', state: 'skipped', outputs: { v: 3, w: 6 } },
      { key: 'fifth', state: 'aborted', outputs: { v: 5, w: 10 } },
    ]);
    expect(await outcome(1)).toEqual(here);
  });

  it('a template that outlasts its trial slice keeps its value (proceed window)', async () => {
    const model = `
id: slow-step
outputs: { w: null }
inputs: { v: 21 }
steps:
  - id: s1
    outputs: { w: "${SLOW}" }
    acts: [ { uses: acts.transform.set, params: { x: 1 } } ]
`;
    h = await createHarness({ codeWorkers: 1 });
    await h.deploy(model);
    const proc = await h.proc(await h.start('slow-step'));
    expect(proc.state).toBe('completed');
    expect(proc.outputs).toEqual({ w: 42 });
  });

  it('an endless outputs template does not stall the event loop when an operator answers', { timeout: 120_000 }, async () => {
    const stallOf = async (codeWorkers: number) => {
      // a time limit of 1 s: on the engine's thread each answer stalls it for a second
      h = await createHarness({ codeWorkers, sandbox: { timeoutMs: 1000 } });
      await h.deploy(answers(ENDLESS));
      const pid = await h.start('answers');
      await h.settle();
      const stall = await longestStall(async () => {
        await h!.act('complete', 'first', { v: 1, w: 0 }, pid);
        await h!.act('submit', 'second', { v: 2, w: 0 }, pid);
        await h!.act('skip', 'third', { v: 3 }, pid);
        await h!.settle();
      });
      // the endless template ends at its limit: an evaluation error gives null
      expect(h.find({ key: 'third', pid, state: 'skipped' })[0].outputs).toEqual({ v: 3, w: null });
      await h.close();
      h = undefined;
      return stall;
    };
    const onThread = await stallOf(0);
    const onWorkers = await stallOf(2);
    console.log(`longest event-loop stall: ${onThread.toFixed(0)} ms on the engine thread, ${onWorkers.toFixed(0)} ms with code workers`);
    expect(onThread).toBeGreaterThanOrEqual(900);
    expect(onWorkers).toBeLessThan(500);
  });
});

/** Four interrupt acts side by side (siblings under one parallel block), each with `w` as its outputs template. */
const fan = (w: string) => `
id: fan
steps:
  - id: s1
    acts:
      - uses: acts.core.block
        params:
          mode: parallel
          acts:${`\n            - { uses: acts.core.irq, key: ask, outputs: { w: "${w}" } }`.repeat(4)}
`;

describe('outputs of the tasks a client action closes along with its act, with code workers', () => {
  for (const action of ['skip', 'abort']) {
    it(`an endless outputs template on the siblings a ${action} closes does not stall the event loop`, { timeout: 120_000 }, async () => {
      const run = async (codeWorkers: number) => {
        h = await createHarness({ codeWorkers, sandbox: { timeoutMs: 300 } });
        await h.deploy(fan(ENDLESS));
        const pid = await h.start('fan');
        await h.settle();
        const stall = await longestStall(async () => {
          await h!.act(action, 'ask', {}, pid);
          await h!.settle();
        });
        const closed = h.find({ key: 'ask', pid }).filter((m) => m.state !== 'created');
        const result = { state: (await h.proc(pid)).state, closed: closed.map((m) => [m.state, m.outputs]) };
        await h.close();
        h = undefined;
        return { stall, result };
      };
      const onThread = await run(0);
      const onWorkers = await run(2);
      console.log(`${action}: longest event-loop stall ${onThread.stall.toFixed(0)} ms on the engine thread, ${onWorkers.stall.toFixed(0)} ms with code workers`);
      expect(onThread.result.closed).toHaveLength(4);
      expect(onWorkers.result).toEqual(onThread.result);
      // three siblings at 300 ms each, evaluated one after another in the action's job
      expect(onThread.stall).toBeGreaterThanOrEqual(800);
      expect(onWorkers.stall).toBeLessThan(250);
    });
  }
});
