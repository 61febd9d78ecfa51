/**
 * Expressions off the engine's thread (issue 10, item 1): with code workers, an expression that
 * runs long (an `inputs`/params template, an `if`, outputs) or writes (a branch's `run`) is tried
 * on the engine's thread for a short slice only, then evaluated on a worker, and the task's work
 * is redone with its outcome — so hostile expressions no longer stall the event loop, and the
 * result is the same as on the engine's thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';
import { longestStall } from './helpers/event-loop.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const LOOPING = `
id: looping
steps:
  - id: s1
    acts:
      - uses: acts.core.parallel
        params:
          in: [1, 2, 3, 4, 5, 6]
          acts:
            - uses: acts.transform.set
              params: { x: "{{ (() => { while (true) {} })() }}" }
              catches: [ { steps: [] } ]
  - id: s2
    if: "(() => { while (true) {} })()"
    catches: [ { steps: [] } ]
    acts: [ { uses: acts.transform.set, params: { y: 1 } } ]
`;

describe('expressions with code workers', () => {
  it('endless expressions do not stall the event loop: each ends at its time limit on a worker', { timeout: 120_000 }, async () => {
    // a time limit of 1 s: on the engine's thread each of the seven would stall it for a second
    h = await createHarness({ codeWorkers: 2, sandbox: { timeoutMs: 1000 } });
    await h.deploy(LOOPING);
    let pid = '';
    const t0 = performance.now();
    const stall = await longestStall(async () => {
      pid = (await h!.engine.procs.start('looping')).pid;
      await h!.settle();
    });
    const elapsed = performance.now() - t0;
    const proc = await h.proc(pid);
    expect(proc.state).toBe('completed');
    // every endless template ran to its limit (the acts' catches took the errors)
    const sets = proc.tasks.filter((t) => t.kind === 'act' && t.nid !== 's1' && t.uses === 'acts.transform.set');
    expect(sets.filter((t) => !('x' in t.data))).toHaveLength(6);
    expect(h.find({ type: 'step', nid: 's2', state: 'error' })).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(3000);
    console.log(`longest event-loop stall: ${stall.toFixed(0)} ms`);
    expect(stall).toBeLessThan(500);
  });

  it('a branch run script that writes runs once, on a worker, with the outcome it has on the engine thread', async () => {
    const model = `
id: writes
inputs: { n: 0 }
outputs: { n: null, later: null }
steps:
  - id: s1
    branches:
      - id: b1
        if: "n === 0"
        run: "console.log('run'); $set('n', n + 1)"
        steps: [ { id: s2, acts: [ { uses: acts.transform.set, params: { later: "{{ n * 10 }}" } } ] } ]
`;
    const outcome = async (codeWorkers: number) => {
      const lines: string[] = [];
      const logger = { info: (m: string) => lines.push(m), warn: () => undefined, error: () => undefined, debug: () => undefined };
      h = await createHarness({ codeWorkers, logger });
      await h.deploy(model);
      const proc = await h.proc(await h.start('writes'));
      await h.close();
      h = undefined;
      return { state: proc.state, outputs: proc.outputs, runs: lines.filter((l) => l.endsWith(' run')).length };
    };
    const here = await outcome(0);
    expect(here).toEqual({ state: 'completed', outputs: { n: 1, later: 10 }, runs: 1 });
    expect(await outcome(1)).toEqual(here);
  });

  it('a task whose skip condition and outputs both outgrow the trial ends (their answers are kept until its job is done)', { timeout: 60_000 }, async () => {
    // each runs ~20 ms, past the trial slice: both go to the worker, one after the other
    const slow = (value: string) => `(() => { const t = Date.now(); while (Date.now() - t < 20) {} return ${value} })()`;
    const model = `
id: slow-skip
steps:
  - id: s1
    if: "${slow('false')}"
    outputs: { o: "{{ ${slow('1')} }}" }
    acts: [ { uses: acts.transform.set, params: { a: 1 } } ]
  - id: s2
    acts: [ { uses: acts.transform.set, params: { b: 2 } } ]
`;
    h = await createHarness({ codeWorkers: 1 });
    await h.deploy(model);
    const pid = await h.start('slow-skip');
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
    const s1 = h.messages.filter((m) => m.pid === pid && m.nid === 's1').map((m) => `${m.state} ${JSON.stringify(m.outputs)}`);
    expect(s1).toEqual(['skipped {"o":1}']);
  });
});
