/**
 * Timeout rules count from a task's start (runtime/timers.ts): a task is watched from its init,
 * which may wait for a code worker; a tick in that wait must not find its rules due (it has no
 * start time yet). Found by the simulation (seed 1300335, after a crash): the rule fired at once.
 */
import { afterEach, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/harness.ts';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

// the act's title is an expression: with every expression on the code worker, its init waits there
const MODEL = `id: slow_init
steps:
  - id: s1
    acts:
      - id: ask
        uses: acts.core.irq
        key: ask
        params: { title: "{{ 'answer ' + 1 }}" }
        timeout:
          - on: 30s
            steps: [ { id: late, acts: [ { uses: acts.core.msg, key: late, params: { text: late } } ] } ]
`;

it('a tick while a task waits for its init on a code worker fires none of its rules; they count from its start', async () => {
  const held: Array<() => void> = [];
  let holding = false;
  const h = await createHarness({
    codeWorkers: 1,
    expressionTrialMs: 0,
    codeAnswers: <T>(answer: Promise<T>) => (holding ? new Promise<T>((resolve, reject) => held.push(() => void answer.then(resolve, reject))) : answer),
  });
  open.push(h);
  await h.deploy(MODEL);
  holding = true;
  const proc = await h.engine.procs.start('slow_init');
  await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
  // 40 s pass while the act's init waits for the worker (no settle: it waits for the held answer)
  h.clock.advance(40_000);
  const report = await h.engine.tick();
  expect(report).toMatchObject({ timeouts: 0 });
  expect(h.engine.nextTimeoutAt()).toBeNull();
  holding = false;
  for (const release of held.splice(0)) release();
  await h.settle();
  const ask = (await h.proc(proc.pid)).tasks.find((t) => t.nid === 'ask');
  expect(ask?.state).toBe('interrupted');
  expect((await h.proc(proc.pid)).tasks.map((t) => t.nid)).not.toContain('late');
  // the rule is due 30 s after the act started
  expect(h.engine.nextTimeoutAt()).toBe(ask!.start_time + 30_000);
  await h.tick(31_000);
  expect((await h.proc(proc.pid)).tasks.map((t) => t.nid)).toContain('late');
});
