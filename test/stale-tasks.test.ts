/**
 * The shapes the simulation found (issue 9), as hand-written cases: a process never stays running
 * with nothing to do, and a task that can no longer matter is closed (docs/engine-decisions.md,
 * "Open tasks that can no longer matter"). The seeds that found them replay in test/sim.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

/** The states of every task of a node, in creation order. */
const states = (pid: string, nid: string) => h.states(pid, nid);

/** Answers the named interrupts in order; the process then ends completed. */
async function completeToTheEnd(pid: string, ...keys: string[]): Promise<void> {
  for (const key of keys) await h.act('complete', key);
  expect((await h.proc(pid)).state).toBe('completed');
}

async function expectMovable(pid: string): Promise<void> {
  expect(await h.engine.stuckProcesses()).toEqual([]);
  const proc = await h.proc(pid);
  if (proc.state === 'running') expect(proc.tasks.some((t) => t.state === 'interrupted' && !t.hook)).toBe(true);
}

describe('back to a step that encloses the act', () => {
  it('restarts a loop head: the old head and everything under it close, the root completes', async () => {
    await h.deploy(`
id: loop-back
inputs: { c: 0 }
steps:
  - id: head
    branches:
      - id: again
        if: c < 1
        run: $set('c', c + 1)
        steps:
          - id: body
            acts: [ { id: ask, uses: acts.core.irq } ]
            next: head
      - { id: done, else: true, steps: [ { id: last, acts: [ { id: fin, uses: acts.core.irq } ] } ] }
`);
    const pid = await h.start('loop-back');
    await h.act('back', 'ask', { to: 'head' });
    expect(await states(pid, 'head')).toEqual(['backed', 'running']);
    expect(await states(pid, 'ask')).toEqual(['backed']);
    await expectMovable(pid);
    await completeToTheEnd(pid, 'fin');
  });

  it('restarts the step holding the branch the act sits in', async () => {
    await h.deploy(`
id: branch-back
steps:
  - id: outer
    branches:
      - { id: left, if: "true", steps: [ { id: inner, acts: [ { id: ask, uses: acts.core.irq } ] } ] }
      - { id: right, if: "true", steps: [ { id: other, acts: [ { id: wait, uses: acts.core.irq } ] } ] }
`);
    const pid = await h.start('branch-back');
    await h.act('back', 'ask', { to: 'outer' });
    expect(await states(pid, 'outer')).toEqual(['backed', 'running']);
    // the sibling branch's interrupt of the old step can no longer matter
    expect(await states(pid, 'wait')).toEqual(['skipped', 'interrupted']);
    await completeToTheEnd(pid, 'ask', 'wait');
  });
});

describe('branches that wait', () => {
  it('a needs branch decides at once when the branch it needs was skipped before it started', async () => {
    await h.deploy(`
id: needs-skipped
steps:
  - id: s
    branches:
      - { id: first, if: "false", steps: [ { id: x, acts: [ { id: never, uses: acts.core.irq } ] } ] }
      - { id: then, needs: [first], steps: [ { id: y, acts: [ { id: runs, uses: acts.core.irq } ] } ] }
`);
    const pid = await h.start('needs-skipped');
    expect(await states(pid, 'then')).toEqual(['running']);
    await completeToTheEnd(pid, 'runs');
  });

  it('an else listed before such a branch, and a chain of needs, are decided', async () => {
    await h.deploy(`
id: needs-chain
steps:
  - id: s
    branches:
      - { id: otherwise, else: true, steps: [ { id: z, acts: [ { id: fallback, uses: acts.core.irq } ] } ] }
      - { id: third, needs: [second], if: "false", steps: [ { id: w } ] }
      - { id: second, needs: [first], if: "false", steps: [ { id: v } ] }
      - { id: first, if: "false", steps: [ { id: u } ] }
`);
    const pid = await h.start('needs-chain');
    expect(await states(pid, 'second')).toEqual(['skipped']);
    expect(await states(pid, 'third')).toEqual(['skipped']);
    expect(await states(pid, 'otherwise')).toEqual(['running']);
    await completeToTheEnd(pid, 'fallback');
  });

  it('a needs on an else branch is refused at deploy: it could never start', () => {
    const problems = h.engine.models.validate(`
id: else-cycle
steps:
  - id: s
    branches:
      - { id: fallback, else: true, steps: [ { id: x } ] }
      - { id: after, needs: [fallback], steps: [ { id: y } ] }
`);
    expect(problems.map((p) => [p.code, p.path])).toEqual([['model.needs_cycle', 'steps[0].branches[1].needs']]);
    expect(problems[0].message).toContain("'fallback' is an `else` branch, which waits for every other branch");
  });

  it('a loop closes the waiting else branch of the iteration it leaves', async () => {
    await h.deploy(`
id: loop-else
inputs: { c: 0 }
steps:
  - id: head
    branches:
      - { id: otherwise, else: true, steps: [ { id: z, acts: [ { id: fallback, uses: acts.core.irq } ] } ] }
      - id: again
        if: c < 1
        run: $set('c', c + 1)
        steps: [ { id: body, acts: [ { id: ask, uses: acts.core.irq } ], next: head } ]
`);
    const pid = await h.start('loop-else');
    expect(await states(pid, 'otherwise')).toEqual(['pending']);
    await h.act('complete', 'ask');
    expect(await states(pid, 'otherwise')).toEqual(['skipped', 'running']);
    await completeToTheEnd(pid, 'fallback');
  });
});

describe('hooks', () => {
  const hooked = `
id: hooked
setup:
  - { id: watch, on: created, uses: acts.core.irq }
steps:
  - id: s1
    acts: [ { id: work, uses: acts.core.irq } ]
`;

  it("skipping a hook leaves its owner's children alone; back on a hook is refused", async () => {
    await h.deploy(hooked);
    const pid = await h.start('hooked');
    await expect(h.act('back', 'watch', { to: 's1' })).rejects.toMatchObject({ code: 'action.refused' });
    await h.act('skip', 'watch');
    expect(await states(pid, 's1')).toEqual(['running']);
    await completeToTheEnd(pid, 'work');
  });

  it('a hook still waiting when the process ends is closed', async () => {
    await h.deploy(hooked);
    const pid = await h.start('hooked');
    await completeToTheEnd(pid, 'work');
    expect(await states(pid, 'watch')).toEqual(['skipped']);
  });
});

describe('subflows', () => {
  const child = `
id: child
outputs: { v: null }
steps:
  - id: c1
    acts: [ { id: inner, uses: acts.core.irq } ]
`;

  it('a subflow act closed before its child returned aborts the child', async () => {
    await h.deploy(child);
    await h.deploy(`
id: parent
steps:
  - id: p1
    acts:
      - { id: call, uses: acts.core.subflow, params: { to: child } }
      - { id: never, uses: acts.core.irq }
    branches:
      - { id: side, if: "true", steps: [ { id: p2, acts: [ { id: stop, uses: acts.core.irq } ] } ] }
`);
    const pid = await h.start('parent');
    const inner = h.created('inner');
    await h.act('back', 'stop', { to: 'p1' });
    expect((await h.proc(inner.pid)).state).toBe('aborted');
    expect(await states(pid, 'call')).toEqual(['skipped', 'running']);
  });

  it('a child error caught by the act (no steps) lets the act complete', async () => {
    await h.deploy(child);
    await h.deploy(`
id: parent
steps:
  - id: p1
    acts:
      - id: call
        uses: acts.core.subflow
        params: { to: child }
        catches: [ { on: rejected, steps: [] } ]
      - { id: next, uses: acts.core.irq }
`);
    const pid = await h.start('parent');
    await h.act('error', 'inner', { ecode: 'rejected' });
    expect(await states(pid, 'call')).toEqual(['completed']);
    expect(await states(pid, 'next')).toEqual(['interrupted']);
  });

  it('a subflow child starts beyond cache_cap: its parent holds the only slot', async () => {
    await h.close();
    h = await createHarness({ cacheCap: 1 });
    await h.deploy(child);
    await h.deploy(`
id: parent
steps:
  - id: p1
    acts: [ { id: call, uses: acts.core.subflow, params: { to: child } } ]
`);
    const pid = await h.start('parent');
    await h.act('complete', 'inner', { v: 1 });
    expect((await h.proc(pid)).state).toBe('completed');
  });
});
