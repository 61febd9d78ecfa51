/**
 * The outputs of tasks closed from outside (issue 10, item 1), on the paths other than a client
 * action's own: an error's escalation (the failing tasks' error messages, the siblings skipped on
 * the way, what the end of the process closes), a `back` beyond the act's siblings, a loop jump
 * (the enclosing tasks it leaves), an internal action (`acts.core.action`) and a subflow's return.
 * With code workers an endless outputs template on those tasks no longer stalls the event loop,
 * and each run ends with the states and outputs the engine thread gives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';
import { longestStall } from './helpers/event-loop.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ENDLESS = '{{ (() => { while (true) {} })() }}';
/** Runs about 30 ms on whichever thread evaluates it, then gives the variable `name`. */
const slow = (name: string) => `{{ (() => { const t = Date.now(); while (Date.now() - t < 30) {} return ${name} })() }}`;

/** Each endless template ends at this limit (an evaluation error gives null). */
const LIMIT_MS = 500;

interface Outcome {
  state: string;
  /** Every message but `created`: type, key (or node), state and outputs, sorted. */
  closed: string[];
}

/** Runs `drive` on a fresh engine with `codeWorkers`; the longest event-loop stall meanwhile, and how the process ended. */
async function run(codeWorkers: number, models: string[], drive: (h: Harness) => Promise<string>): Promise<{ stall: number; outcome: Outcome }> {
  h = await createHarness({ codeWorkers, sandbox: { timeoutMs: LIMIT_MS } });
  for (const model of models) await h.deploy(model);
  let pid = '';
  const stall = await longestStall(async () => {
    pid = await drive(h!);
    await h!.settle();
  });
  const closed = h.messages
    .filter((m) => m.pid === pid && m.state !== 'created')
    .map((m) => `${m.type} ${m.key || m.nid} ${m.state} ${JSON.stringify(m.outputs)}`)
    .sort();
  const outcome = { state: (await h.proc(pid)).state, closed };
  await h.close();
  h = undefined;
  return { stall, outcome };
}

/**
 * Runs a scenario on the engine thread and with code workers: the same end; on the thread the
 * `endless` templates stall the event loop one after another, with workers none does.
 */
async function compare(name: string, models: string[], drive: (h: Harness) => Promise<string>, endless: number): Promise<Outcome> {
  const onThread = await run(0, models, drive);
  const onWorkers = await run(2, models, drive);
  console.log(`${name}: longest event-loop stall ${onThread.stall.toFixed(0)} ms on the engine thread, ${onWorkers.stall.toFixed(0)} ms with code workers`);
  expect(onWorkers.outcome).toEqual(onThread.outcome);
  expect(onThread.stall).toBeGreaterThanOrEqual(endless * LIMIT_MS * 0.9);
  // one endless template on the thread would stall it for its whole limit
  expect(onWorkers.stall).toBeLessThan(LIMIT_MS * 0.8);
  return onThread.outcome;
}

const ask = (key: string, w = ENDLESS) => `{ uses: acts.core.irq, key: ${key}, outputs: { w: "${w}" } }`;

/** A parallel block in step s1 with `acts` beside two endless `ask` acts; the root's hook waits too. */
const fan = (id: string, acts: string[], step = '') => `
id: ${id}
setup: [ { uses: acts.core.irq, key: hooked, on: created, outputs: { w: "${ENDLESS}" } } ]
steps:
  - id: s1
    outputs: { w: "${ENDLESS}" }${step}
    acts:
      - uses: acts.core.block
        key: fan
        outputs: { w: "${ENDLESS}" }
        params:
          mode: parallel
          acts:
            - ${ask('ask')}
            - ${ask('ask')}${acts.map((a) => `\n            - ${a}`).join('')}
`;

const start = (mid: string) => async (harness: Harness) => harness.start(mid);

describe('error escalation with code workers', () => {
  const BOOM = `{ uses: acts.transform.code, key: boom, params: 'throw new Error("boom")' }`;
  const CATCH = `\n    catches: [ { steps: [ { id: after, acts: [ { uses: acts.core.irq, key: after } ] } ] } ]`;

  it('an endless outputs template on what an uncaught error closes does not stall the event loop', { timeout: 120_000 }, async () => {
    // the siblings it skips, the step that fails (the block, a func act, has no message) and the root's hook the end closes
    const outcome = await compare('uncaught error', [fan('uncaught', [BOOM])], start('uncaught'), 4);
    expect(outcome.state).toBe('error');
    expect(outcome.closed).toContain('act hooked skipped {"w":null}');
  });

  it('stops at the level whose catch rule takes the error', { timeout: 120_000 }, async () => {
    const outcome = await compare('caught error', [fan('caught', [BOOM], CATCH)], start('caught'), 3);
    expect(outcome.state).toBe('running');
    expect(outcome.closed.filter((m) => m.startsWith('step s1'))).toEqual(['step s1 error {"w":null}']);
  });

  it('the error action closes the escalation in its own window', { timeout: 120_000 }, async () => {
    const outcome = await compare('error action', [fan('erring', [])], async (harness) => {
      const pid = await harness.start('erring');
      await harness.act('error', 'ask', { ecode: 'e1' }, pid);
      return pid;
    }, 4);
    expect(outcome.state).toBe('error');
  });
});

describe('a back beyond the act siblings with code workers', () => {
  it('evaluates the outputs of its owner and of the steps it leaves off the engine thread', { timeout: 120_000 }, async () => {
    const model = `
id: backing
steps:
  - id: s1
    acts: [ { uses: acts.core.irq, key: first } ]
  - id: s2
    outputs: { w: "${ENDLESS}" }
    acts:
      - uses: acts.core.block
        outputs: { w: "${ENDLESS}" }
        params: { mode: parallel, acts: [ ${ask('ask')}, ${ask('ask')} ] }
`;
    const outcome = await compare('back', [model], async (harness) => {
      const pid = await harness.start('backing');
      await harness.act('complete', 'first', {}, pid);
      await harness.act('back', 'ask', { to: 's1' }, pid);
      return pid;
    }, 2);
    expect(outcome.closed).toContain('step s2 completed {"w":null}');
  });
});

/** A loop: `ask` jumps back to `cond`, leaving the branch `more` and the step `cond` (with an irq still waiting beside). */
const loop = (id: string, outputs: { more: string; cond: string; aside: string }) => `
id: ${id}
inputs: { index: 0 }
outputs: { who: null, seen: null, again: null }
steps:
  - id: cond
    outputs: { again: "${outputs.cond}" }
    branches:
      - id: more
        if: index < 1
        outputs: { seen: "${outputs.more}" }
        steps:
          - id: ask
            acts:
              - { uses: acts.core.irq, key: approve, outputs: { who: null } }
              - { uses: acts.transform.code, params: '$set("index", index + 1);' }
            next: cond
      - id: side
        if: index < 1
        steps: [ { id: aside, acts: [ { uses: acts.core.irq, key: aside, outputs: { w: "${outputs.aside}" } } ] } ]
      - { id: done, else: true, steps: [ { id: finish } ] }
`;

describe('a loop jump with code workers', () => {
  const approve = (mid: string) => async (harness: Harness) => {
    const pid = await harness.start(mid);
    await harness.act('complete', 'approve', { who: 'x' }, pid);
    return pid;
  };

  it('evaluates the outputs of the tasks it leaves off the engine thread', { timeout: 120_000 }, async () => {
    await compare('loop jump', [loop('looping', { more: ENDLESS, cond: ENDLESS, aside: ENDLESS })], approve('looping'), 3);
  });

  it('the outputs it passes up reach the tasks it leaves before their templates read them', { timeout: 60_000 }, async () => {
    // `more` reads what `ask` passed up, `cond` what `more` passed up: not written yet when evaluated ahead
    const model = loop('passing', { more: slow('who'), cond: slow('seen'), aside: slow('index') });
    const onThread = await run(0, [model], approve('passing'));
    const onWorkers = await run(1, [model], approve('passing'));
    expect(onThread.outcome.state).toBe('completed');
    expect(onThread.outcome.closed).toContain('workflow passing completed {"who":"x","seen":"x","again":"x"}');
    expect(onWorkers.outcome).toEqual(onThread.outcome);
  });
});

describe('internal actions and subflow returns with code workers', () => {
  it('an acts.core.action evaluates what its action closes before it runs', { timeout: 120_000 }, async () => {
    const action = `{ uses: acts.core.action, params: { action: next, options: { v: 1 } } }`;
    const outcome = await compare('internal action', [fan('inner', [action])], start('inner'), 3);
    // the block completes with its (evaluated) outputs and passes them on to the step
    expect(outcome.closed).toContain('step s1 completed {"w":null,"v":1}');
  });

  for (const [ending, code] of [
    ['completes', 'return { r: 1 }'],
    ['fails', 'throw new Error("no")'],
  ]) {
    it(`a child that ${ending} returns to its act off the engine thread`, { timeout: 120_000 }, async () => {
      const child = `
id: child
steps: [ { id: c1, acts: [ { uses: acts.transform.code, params: '${code}' } ] } ]
`;
      const call = `{ uses: acts.core.subflow, key: call, params: { to: child }, outputs: { w: "${ENDLESS}" } }`;
      // completes: the act's outputs; fails: its siblings', the step's and the end's hook (func acts have no error message)
      const outcome = await compare(`subflow that ${ending}`, [child, fan('calling', [call])], start('calling'), ending === 'fails' ? 4 : 1);
      expect(outcome.state).toBe(ending === 'fails' ? 'error' : 'running');
    });
  }
});
