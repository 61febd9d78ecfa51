/**
 * Panic isolation (spec 5.11): an exception that escapes the task guard — here thrown while a
 * task's error is being reported — becomes the error of that task's open parent, "scheduler task
 * panicked: …", and propagates like any other (catches apply); the lane goes on with later jobs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultPoint } from '../server/engine/context.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Throws once at the named point, the first time it is reached. */
function throwOnce(point: FaultPoint): { faults: (p: FaultPoint) => void; fired: () => boolean } {
  let fired = false;
  return {
    faults: (p) => {
      if (p !== point || fired) return;
      fired = true;
      throw new Error('defect while reporting');
    },
    fired: () => fired,
  };
}

const failing = (catchAll: boolean) => `
id: panics
steps:
  - id: s1
    acts:
      - { id: boom, uses: acts.transform.code, params: "throw new Error('act failed')" }
${catchAll ? `    catches:\n      - steps: [ { id: handled, acts: [ { id: note, uses: acts.core.msg } ] } ]\n` : ''}  - id: s2
    acts: [ { id: after, uses: acts.core.irq } ]
`;

describe('an exception escaping the task guard', () => {
  it('fails the open parent with "scheduler task panicked" and ends the process in error', async () => {
    const fault = throwOnce('error:reporting');
    const errors: string[] = [];
    h = await createHarness({ faults: fault.faults, logger: { debug() {}, info() {}, warn() {}, error: (m) => void errors.push(m) } });
    await h.deploy(failing(false));
    const pid = await h.start('panics');
    expect(fault.fired()).toBe(true);
    const proc = await h.proc(pid);
    expect(proc.state).toBe('error');
    expect(proc.err?.message).toBe('scheduler task panicked: defect while reporting');
    const states = Object.fromEntries(proc.tasks.map((t) => [t.nid, t.state]));
    expect(states).toMatchObject({ boom: 'error', s1: 'error', panics: 'error' });
    expect(errors.some((m) => m.includes('panicked: defect while reporting'))).toBe(true);
    expect(await h.engine.stuckProcesses()).toEqual([]);
  });

  it('is caught by a catch rule like any error, and the process goes on', async () => {
    const fault = throwOnce('error:reporting');
    h = await createHarness({ faults: fault.faults });
    await h.deploy(failing(true));
    const pid = await h.start('panics');
    expect(fault.fired()).toBe(true);
    const proc = await h.proc(pid);
    expect(proc.state).toBe('running');
    expect(proc.tasks.find((t) => t.nid === 'note')?.state).toBe('completed');
    await h.act('complete', 'after');
    expect((await h.proc(pid)).state).toBe('completed');
  });

  it('leaves the lane working for later processes', async () => {
    const fault = throwOnce('error:reporting');
    h = await createHarness({ faults: fault.faults, schedulerWorkers: 1 });
    await h.deploy(failing(false));
    const first = await h.start('panics');
    const second = await h.start('panics');
    expect((await h.proc(first)).state).toBe('error');
    // the second one fails the ordinary way: its own act's error, reported without a panic
    const next = await h.proc(second);
    expect(next.state).toBe('error');
    expect(next.err?.message).toContain('act failed');
  });
});
