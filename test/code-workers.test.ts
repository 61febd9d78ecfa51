/**
 * Code acts on code worker threads (issue 10, item 1): user code never holds the engine's thread,
 * its scope works as on the engine's thread, and a code act keeps its lane's order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcDetail } from '../server/runtime/info.ts';
import { createHarness, type Harness } from './helpers/harness.ts';
import { longestStall } from './helpers/event-loop.ts';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness(codeWorkers: number, timeoutMs = 200): Promise<Harness> {
  const h = await createHarness({ codeWorkers, sandbox: { timeoutMs }, schedulerWorkers: 4 });
  harnesses.push(h);
  return h;
}

const RUNAWAY = `
id: runaway
steps:
  - { id: s1, acts: [ { uses: acts.transform.code, params: 'while (true) {}' } ] }
`;

const WARM = `
id: warm
steps:
  - { id: s1, acts: [ { uses: acts.transform.code, params: 'return { ok: 1 }' } ] }
`;

async function runaways(h: Harness, count: number): Promise<void> {
  await h.deploy(RUNAWAY);
  const pids: string[] = [];
  for (let i = 0; i < count; i++) pids.push((await h.engine.procs.start('runaway', {})).pid);
  await h.settle();
  for (const pid of pids) {
    const detail = await h.proc(pid);
    expect(detail.state).toBe('error');
    expect(detail.err?.message).toMatch(/time limit of 2000 ms/);
  }
}

describe('runaway code acts', () => {
  /** Pays the one-time costs (first schema compile, first run) before the stalls are measured. */
  async function warmed(workers: number): Promise<Harness> {
    const h = await harness(workers, 2000);
    await h.deploy(WARM);
    await h.start('warm');
    return h;
  }

  it('on code workers, the engine thread never waits for them', async () => {
    const h = await warmed(2);
    const stall = await longestStall(() => runaways(h, 4));
    // each script runs for its whole 2 s limit; not one of them held the event loop
    expect(stall).toBeLessThan(1000);
    // the limit is CPU time: on a busy machine the niced workers take longer, up to 5 times it each
  }, 60_000);

  it('on the engine thread (no workers), each one holds the event loop for its limit', async () => {
    const h = await warmed(0);
    const stall = await longestStall(() => runaways(h, 1));
    expect(stall).toBeGreaterThanOrEqual(1800);
  });
});

const SCOPED = `
id: scoped
inputs: { a: 2 }
steps:
  - id: s1
    acts:
      - uses: acts.transform.code
        params: |
          $set('local', 1);
          $set_process_var('root_var', a * 10);
          $env.seen = 'yes';
          console.log('from the code');
          return { x: a * 21, inputs: $inputs(), data_keys: Object.keys($data()).sort() };
  - id: s2
    acts:
      - uses: acts.transform.code
        params: |
          s2.mark = 'set on the open step';
          return { y: x + 1, from_step: s1.x, env: $env.seen, root_var, os: typeof os, conf: conf.region };
      - uses: acts.transform.code
        params: |
          try { s1.late = 1; return { wrote: true } } catch (e) { return { refused: e.message } }
      - uses: acts.transform.code
        params: |
          return { missing: typeof nowhere, bad: (() => { try { return nostep.x } catch (e) { return e.message } })() };
  - id: s3
    acts:
      - { uses: acts.transform.code, params: 'throw new Error("boom " + y)' }
`;

/** Task states, data and outputs by node, in creation order (tids differ between runs). */
function shape(detail: ProcDetail): unknown {
  return {
    state: detail.state,
    err: detail.err,
    env: detail.env,
    tasks: detail.tasks.map((t) => ({ nid: t.kind === 'act' ? t.uses : t.nid, state: t.state, data: t.data, outputs: t.outputs, err: t.err })),
  };
}

describe('a code act on a worker', () => {
  it('sees and changes the same scope as on the engine thread', async () => {
    const results: unknown[] = [];
    for (const workers of [0, 2]) {
      const h = await harness(workers);
      h.engine.registerVar('conf', { region: 'eu' });
      await h.deploy(SCOPED);
      const pid = await h.start('scoped');
      results.push(shape(await h.proc(pid)));
    }
    const [inline, onWorker] = results as Array<{ state: string; err: { message: string }; tasks: Array<{ outputs: Record<string, unknown> }> }>;
    expect(JSON.stringify(onWorker, null, 1)).toEqual(JSON.stringify(inline, null, 1));
    expect(onWorker.state).toBe('error');
    expect(onWorker.err.message).toBe('boom 43');
    const outputs = onWorker.tasks.map((t) => t.outputs).filter((o) => o && Object.keys(o).length > 0);
    expect(outputs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ x: 42, inputs: {}, data_keys: ['local'] }),
        { y: 43, from_step: 42, env: 'yes', root_var: 20, os: 'string', conf: 'eu' },
        { refused: expect.stringMatching(/step 's1' is already completed/) },
        { missing: 'undefined', bad: expect.stringMatching(/nostep/) },
      ]),
    );
  });

  it('keeps its lane in order: an action on the process waits until the code is done', async () => {
    const h = await harness(1, 2000);
    await h.deploy(`
id: ordered
steps:
  - id: s1
    branches:
      - id: b1
        if: 'true'
        steps:
          - id: busy
            acts:
              - { uses: acts.core.irq, key: go }
              - uses: acts.transform.code
                key: slow
                params: |
                  const until = Date.now() + 300; while (Date.now() < until) {}
                  return { done_at: Date.now() };
      - id: b2
        if: 'true'
        steps: [ { id: wait, acts: [ { uses: acts.core.irq, key: ask } ] } ]
`);
    const proc = await h.engine.procs.start('ordered', {});
    await h.settle();
    const go = h.created('go', proc.pid);
    const ask = h.created('ask', proc.pid);
    // `go` starts the code act; `ask` is answered while its code runs on the worker
    await h.engine.do({ pid: proc.pid, tid: go.tid, action: 'next', options: {} });
    while (h.engine.stats().lanes.held === 0) await new Promise((resolve) => setImmediate(resolve));
    await h.engine.do({ pid: proc.pid, tid: ask.tid, action: 'next', options: {} });
    // the answer applied after the code act's result, as if the code had run inside its job
    const slow = (await h.proc(proc.pid)).tasks.find((t) => t.key === 'slow')!;
    expect(slow.state).toBe('completed');
    expect(slow.data.done_at).toEqual(expect.any(Number));
    await h.settle();
    expect((await h.proc(proc.pid)).state).toBe('completed');
  });
});
