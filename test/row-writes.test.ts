/**
 * What a job writes (issue 12, item 3): a process row only when it changed, and task rows whose
 * `hooks` JSON leaves out the fields still at their defaults — while restarts read them the same.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extraOf } from '../server/runtime/rows.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { ProcRow, TaskRow } from '../server/store/contract/types.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

/** The three-step workflow of `npm run bench:peers`. */
const THREE_STEPS = readFileSync(new URL('./fixtures/models/three-set-steps.yml', import.meta.url), 'utf8');
const TWO_WAITS = 'id: waits\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] }, { id: s2, acts: [ { uses: acts.core.irq, key: b } ] } ]';
const THREE_WAITS = 'id: waits3\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: a } ] }, { id: s2, acts: [ { uses: acts.core.irq, key: b } ] }, { id: s3, acts: [ { uses: acts.core.irq, key: c } ] } ]';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The states of the rows the store was asked to write into a collection, per row id, in order. */
function recordWrites<T extends { id: string; state: string }>(rows: { upsert(row: T): Promise<void> }): Map<string, string[]> {
  const written = new Map<string, string[]>();
  const upsert = rows.upsert.bind(rows);
  rows.upsert = async (row: T) => {
    written.set(row.id, [...(written.get(row.id) ?? []), row.state]);
    return upsert(row);
  };
  return written;
}

describe('process rows', () => {
  it('a process writes its row when its state changes, not with every job', async () => {
    const store = new MemoryStore();
    const written = recordWrites<ProcRow>(store.procs);
    h = await createHarness({ store });
    await h.deploy(TWO_WAITS);
    const pid = await h.start('waits');
    await h.act('complete', 'a');
    await h.act('complete', 'b');
    expect((await h.proc(pid)).state).toBe('completed');
    // three turns (the start's to a, to b, to the end) and more jobs: the start's turn wrote the
    // row once, as it left it, and it changed once after
    expect(written.get(pid)).toEqual(['running', 'completed']);
  });

  it('after a failed batch the process writes its row again with its next job', async () => {
    const store = new MemoryStore();
    const written = recordWrites<ProcRow>(store.procs);
    // the batch that completes act `a` fails (a task row of it is written first, then the batch fails)
    let failed = false;
    const upsert = store.tasks.upsert.bind(store.tasks);
    store.tasks.upsert = async (row: TaskRow) => {
      if (row.kind === 'act' && row.state === 'completed' && !failed) {
        failed = true;
        throw new Error('disk full');
      }
      return upsert(row);
    };
    h = await createHarness({ store });
    await h.deploy(THREE_WAITS);
    const pid = await h.start('waits3');
    expect(written.get(pid)).toEqual(['running']);
    await expect(h.act('complete', 'a')).rejects.toThrow(/disk full/);
    expect(failed).toBe(true);
    // the row did not change (running), yet after the failure the next job writes it again
    await h.act('complete', 'b');
    expect(written.get(pid)).toEqual(['running', 'running']);
  });

  it('a start whose first batch fails is refused and leaves nothing running', async () => {
    const store = new MemoryStore();
    const upsert = store.procs.upsert.bind(store.procs);
    let full = true;
    store.procs.upsert = async (row: ProcRow) => {
      if (full) throw new Error('disk full');
      return upsert(row);
    };
    h = await createHarness({ store });
    await h.deploy(TWO_WAITS);
    await expect(h.start('waits')).rejects.toMatchObject({ code: 'internal' });
    expect((await store.procs.query()).rows).toEqual([]);
    // the engine goes on: the next start runs and is written
    full = false;
    const pid = await h.start('waits');
    expect((await store.procs.find(pid))?.state).toBe('running');
  });
});

describe('a start and user code', () => {
  const CODE = 'id: code\nsteps: [ { id: s1, acts: [ { uses: acts.transform.code, params: "return { v: 1 }" } ] } ]';
  const QUICK = 'id: quick\nsteps: [ { id: s1, acts: [ { uses: acts.transform.set, params: { v: 2 } } ] } ]';

  /** The code worker's answers, held back until the test lets each go; one lane, which every process shares. */
  async function heldCodeAnswers(): Promise<{ t: Harness; held: Array<() => void> }> {
    const held: Array<() => void> = [];
    const codeAnswers = <T>(answer: Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => void held.push(() => void answer.then(resolve, reject)));
    h = await createHarness({ codeWorkers: 1, schedulerWorkers: 1, codeAnswers });
    await h.deploy(CODE);
    await h.deploy(QUICK);
    return { t: h, held };
  }

  it('a start whose lane is held by user code on a worker is reported before that code answers', async () => {
    const { t, held } = await heldCodeAnswers();
    const coded = (await t.engine.procs.start('code')).pid;
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // the lane waits for the code's answer; the start is durable and reported all the same
    const quick = (await t.engine.procs.start('quick')).pid;
    expect((await t.proc(quick)).state).toBe('none');
    expect((await t.proc(coded)).state).toBe('running');
    held[0]();
    await t.settle();
    expect((await t.proc(coded)).state).toBe('completed');
    expect((await t.proc(quick)).state).toBe('completed');
  });

  it('a start queued behind a turn that hands code to a worker is reported before that code answers', async () => {
    const { t, held } = await heldCodeAnswers();
    // both first turns are queued in the one lane before either runs; the code's turn runs first
    const [coded, quick] = (await Promise.all([t.engine.procs.start('code'), t.engine.procs.start('quick')])).map((p) => p.pid);
    expect(held).toHaveLength(1);
    expect((await t.proc(coded)).state).toBe('running');
    expect((await t.proc(quick)).state).toBe('none');
    held[0]();
    await t.settle();
    expect((await t.proc(quick)).state).toBe('completed');
  });
});

describe('turns', () => {
  it('a chain of jobs that waits for nothing runs in one turn: one batch, each task row written once', async () => {
    const store = new MemoryStore();
    const procs = recordWrites<ProcRow>(store.procs);
    const tasks = recordWrites<TaskRow>(store.tasks);
    h = await createHarness({ store });
    await h.deploy(THREE_STEPS);
    const before = h.engine.batchSeq();
    const pid = await h.start('three');
    expect((await h.proc(pid)).state).toBe('completed');
    // the start's turn runs the whole workflow: its rows go out once, as the turn left them
    expect(procs.get(pid)).toEqual(['completed']);
    const rows = [...tasks].filter(([id]) => id.startsWith(`${pid}:`));
    // the workflow's task, three steps and three acts are created and finished in the turn
    expect(rows).toHaveLength(7);
    for (const [, states] of rows) expect(states).toEqual(['completed']);
    expect(h.engine.batchSeq() - before).toBeLessThanOrEqual(1);
  });
});

describe('message rows', () => {
  /** The stored messages of a process: `<nid> <state>` in the order they were written. */
  async function storedOf(store: MemoryStore, pid: string): Promise<string[]> {
    return (await store.messages.query()).rows.filter((m) => m.pid === pid).map((m) => `${m.nid} ${m.state}`);
  }

  it('a task that ran through within one batch stores its end message only; every message still went out live', async () => {
    const store = new MemoryStore();
    h = await createHarness({ store });
    await h.deploy(THREE_STEPS);
    const pid = await h.start('three');
    expect(await storedOf(store, pid)).toEqual(['s1 completed', 's2 completed', 's3 completed', 'three completed']);
    // live, each step and the workflow sent `created` and then `completed`
    const live = h.messages.filter((m) => m.pid === pid).map((m) => `${m.type} ${m.state}`);
    expect(live.filter((m) => m.endsWith('created'))).toHaveLength(4);
    expect(live.filter((m) => m.endsWith('completed'))).toHaveLength(4);
  });

  it('a task that waits keeps its created message; its end, in a later batch, is stored beside it', async () => {
    const store = new MemoryStore();
    h = await createHarness({ store });
    await h.deploy(TWO_WAITS);
    const pid = await h.start('waits');
    const acts = async () => (await store.messages.query()).rows.filter((m) => m.pid === pid && m.type === 'act').map((m) => `${m.key} ${m.state}`);
    expect(await acts()).toEqual(['a created']);
    await h.act('complete', 'a');
    expect((await acts()).sort()).toEqual(['a completed', 'a created', 'b created']);
  });

  it('a created message a channel must acknowledge is stored even when its task ended in the same batch', async () => {
    const store = new MemoryStore();
    h = await createHarness({ store });
    h.engine.channel({ id: 'acked', ack: true, type: 'step' }).onMessage(() => undefined);
    await h.deploy(THREE_STEPS);
    const pid = await h.start('three');
    const steps = (await store.messages.query()).rows.filter((m) => m.pid === pid && m.type === 'step');
    expect(steps.map((m) => `${m.nid} ${m.state}`).sort()).toEqual(['s1 completed', 's1 created', 's2 completed', 's2 created', 's3 completed', 's3 created']);
    const delivered = new Set((await store.deliveries.query()).rows.filter((d) => d.pid === pid).map((d) => d.msg_id));
    for (const m of steps) expect(delivered.has(m.id)).toBe(true);
    // the workflow's own messages have no delivery: only its end is stored
    expect(await storedOf(store, pid)).toContain('three completed');
    expect(await storedOf(store, pid)).not.toContain('three created');
  });
});

describe('task rows', () => {
  it('hold only the extra fields that differ from their defaults, and a restart reads them', async () => {
    const store = new MemoryStore();
    h = await createHarness({ store: borrowed(store) });
    await h.deploy(TWO_WAITS);
    const pid = await h.start('waits');
    const rows = (await store.tasks.query()).rows.filter((r) => r.pid === pid);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const hooks = row.hooks as Record<string, unknown>;
      // never at their defaults in a row: an empty list, an empty object, false, null
      expect(hooks.fired_timeouts).toBeUndefined();
      expect(hooks.caught).toBeUndefined();
      expect(hooks.child_pid).toBeUndefined();
      // a row written with every field reads the same
      expect(extraOf({ ...row, hooks: extraOf(row) })).toEqual(extraOf(row));
    }
    const act = rows.find((r) => r.kind === 'act');
    expect(extraOf(act!)).toMatchObject({ hook: false, caught: false, fired_timeouts: [], pushed: [], expansion: null });

    await h.close();
    h = await createHarness({ store: borrowed(store) });
    const waiting = async () => (await h!.proc(pid)).tasks.find((t) => t.kind === 'act' && t.state === 'interrupted')!.tid;
    await h.engine.act.complete(pid, await waiting());
    await h.settle();
    await h.engine.act.complete(pid, await waiting());
    await h.settle();
    expect((await h.proc(pid)).state).toBe('completed');
  });
});
