/**
 * Hooks fired by a process's end (a root `on: completed` hook) run even though the process has
 * already finished when their job comes: when the lane was full at the end they wait in the
 * outbox like any execution, and after a restart the tick hands them back (spec 2.8, 5.4).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../server/store/contract/memory.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

const MODEL = `
id: hooked
setup:
  - { id: fin, uses: acts.core.msg, on: completed, key: fin }
  - { id: fin2, uses: acts.core.msg, on: completed, key: fin2 }
steps:
  - { id: s1, acts: [ { uses: acts.transform.set, params: { a: 1 } } ] }
`;

let h: Harness | undefined;
const open: Harness[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const other of open.splice(0)) await other.close();
});

describe('hooks fired by the end of a process', () => {
  it('run when the lane was full as the process ended', async () => {
    h = await createHarness({ schedulerWorkers: 1, schedulerQueueCap: 1 });
    await h.deploy(MODEL);
    const starts = await Promise.all(Array.from({ length: 20 }, () => h!.engine.procs.start('hooked')));
    await h.settle();
    await h.tick(10_000);
    for (const { pid } of starts) {
      const proc = await h.proc(pid);
      expect(proc.state).toBe('completed');
      expect(await h.states(pid, 'fin')).toEqual(['completed']);
      expect(await h.states(pid, 'fin2')).toEqual(['completed']);
    }
    expect(new Set(h.find({ key: 'fin' }).map((m) => m.pid)).size).toBe(20);
    const outbox = await h.engine.outbox();
    console.log('exec records', outbox.filter((o) => o.type === 'exec').length);
    expect(outbox.filter((o) => o.status !== 'done')).toEqual([]);
  });
});

describe('hooks fired by the end of a process, across a restart', () => {
  it('a hook still running when the engine stopped runs again on the next boot', { timeout: 60_000 }, async () => {
    const store = new MemoryStore();
    // the first engine stops while the end's code hook runs on its worker (it would run for 60 s)
    const first = await createHarness({ store: borrowed(store), codeWorkers: 1, sandbox: { timeoutMs: 60_000 } });
    await first.deploy(`
id: slow_end
setup:
  - { id: fin, uses: acts.transform.code, on: completed, params: 'while (true) {}' }
steps:
  - { id: s1, acts: [ { uses: acts.transform.set, params: { a: 1 } } ] }
`);
    const { pid } = await first.engine.procs.start('slow_end');
    await until(async () => (await first.proc(pid)).tasks.some((t) => t.nid === 'fin' && t.state === 'running'));
    await first.close();
    expect((await store.procs.find(pid))?.state).toBe('completed');

    // the next boot runs it again; this time the sandbox's limit ends it in error
    const second = await createHarness({ store: borrowed(store), codeWorkers: 1, sandbox: { timeoutMs: 100 } });
    open.push(second);
    await until(async () => (await second.proc(pid)).tasks.some((t) => t.nid === 'fin' && t.state === 'error'));
    await second.settle();
    expect((await second.proc(pid)).state).toBe('completed');
    expect((await second.engine.outbox()).filter((o) => o.status !== 'done')).toEqual([]);
  });
});

/** Polls a condition of the store (each poll yields to the engine). */
async function until(condition: () => Promise<boolean>, budgetMs = 30_000): Promise<void> {
  const deadline = Date.now() + budgetMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
