/**
 * Endless loops (issue 10, item 4): a process has a step budget, and validation warns about a
 * `next` loop with nothing in it that waits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateCommand } from '../server/cli/validate.ts';
import { createHarness, type Harness } from './helpers/harness.ts';

const SPIN = `
id: spin
steps:
  - { id: a, acts: [ { uses: acts.transform.set, params: { n: 1 } } ] }
  - { id: b, next: a, acts: [ { uses: acts.transform.code, params: 'return { m: 2 }' } ] }
`;

const WAITING_LOOP = `
id: ask-again
steps:
  - { id: a, acts: [ { uses: acts.core.irq, key: ask } ] }
  - { id: b, next: a }
`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the step budget', () => {
  it('ends a loop that never waits in error, naming its steps', async () => {
    h = await createHarness({ stepBudget: 300 });
    await h.deploy(SPIN);
    const pid = await h.start('spin');
    const detail = await h.proc(pid);
    expect(detail.state).toBe('error');
    expect(detail.err?.message).toMatch(/step budget of 300 tasks/);
    expect(detail.err?.message).toMatch(/'a' \d+ times, 'b' \d+ times/);
    expect(detail.tasks.length).toBeLessThanOrEqual(300);
    // nothing is left open
    expect(detail.tasks.filter((t) => ['ready', 'running', 'pending', 'interrupted'].includes(t.state))).toEqual([]);
  });

  it('is not caught by a catch: the loop would only run again', async () => {
    h = await createHarness({ stepBudget: 200 });
    await h.deploy(`
id: spin-caught
steps:
  - id: outer
    catches: [ { steps: [ { id: handled, acts: [ { uses: acts.core.irq, key: fix } ] } ] } ]
    branches:
      - id: inner
        if: 'true'
        steps:
          - { id: a, acts: [ { uses: acts.transform.set, params: { n: 1 } } ] }
          - { id: b, next: a }
`);
    const pid = await h.start('spin-caught');
    const detail = await h.proc(pid);
    expect(detail.state).toBe('error');
    expect(detail.err?.message).toMatch(/step budget of 200 tasks/);
    expect(h.find({ key: 'fix' })).toEqual([]);
  });

  it('leaves a loop that waits alone', async () => {
    h = await createHarness({ stepBudget: 50 });
    await h.deploy(WAITING_LOOP);
    const pid = await h.start('ask-again');
    for (let i = 0; i < 5; i++) await h.act('complete', 'ask', {}, pid);
    expect((await h.proc(pid)).state).toBe('running');
  });
});

describe('validation warns about a loop that never waits', () => {
  it('on deploy, with the steps of the loop and where it closes', async () => {
    h = await createHarness();
    const spin = await h.engine.models.deploy(SPIN);
    expect(spin.warnings).toEqual([
      expect.objectContaining({ code: 'model.loop_without_wait', severity: 'warning', path: 'steps[1].next', message: expect.stringContaining("'a' → 'b' → 'a'") }),
    ]);
    expect((await h.engine.models.deploy(WAITING_LOOP)).warnings).toEqual([]);
  });

  it('in acts validate, which still passes the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acts-loop-'));
    const file = path.join(dir, 'spin.yml');
    fs.writeFileSync(file, SPIN);
    const lines: string[] = [];
    const code = await validateCommand([file], (line) => lines.push(line), (line) => lines.push(line));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^warning: .*spin\.yml:5:\d+: the loop 'a' → 'b' → 'a' has no act that waits.*\[model\.loop_without_wait\]/);
    expect(lines[1]).toMatch(/ok \(model 'spin'\)/);
  });
});
