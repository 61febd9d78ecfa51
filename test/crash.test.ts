/**
 * Crash recovery with a real process (spec 5.2, 5.3): an engine host is killed with SIGKILL at
 * chosen points (reached through fault points, not timing), a new host starts on the same
 * database, and every process must finish with no act completed twice, no duplicated messages for
 * completed siblings, and every outbox record closed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcDetail } from '../server/runtime/info.ts';
import type { OpRow, ProcRow, TaskRow } from '../server/store/contract/types.ts';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const db of databases) await db.drop();
});

const TWO_STEPS = `
id: two
inputs: { n: 0 }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: a1 }
      - { uses: acts.transform.code, key: bump, params: '$set("n", n + 1)' }
  - id: s2
    acts:
      - { uses: acts.core.irq, key: a2 }
`;

const hosts: EngineProcess[] = [];
async function host(url: string, crashAt?: string, env: Record<string, string> = {}): Promise<EngineProcess> {
  const h = new EngineProcess(url, crashAt, env);
  hosts.push(h);
  await Promise.race([h.ready, h.exited.then(() => Promise.reject(new Error(`host died: ${h.stderr}`)))]);
  return h;
}
afterAll(async () => {
  for (const h of hosts) await h.kill();
});

async function execSql(url: string, sql: string): Promise<void> {
  if (url.startsWith('file:')) {
    const db = new Database(url.slice('file:'.length));
    db.exec(sql);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function storedProc(url: string, pid: string): Promise<ProcRow | undefined> {
  const store = await openStore(url);
  try {
    return await store.procs.find(pid);
  } finally {
    await store.close();
  }
}

async function outboxRows(url: string): Promise<OpRow[]> {
  const store = await openStore(url);
  try {
    return (await store.ops.query()).rows;
  } finally {
    await store.close();
  }
}

async function outboxStatuses(url: string): Promise<string[]> {
  const store = await openStore(url);
  try {
    return (await store.ops.query()).rows.map((o) => o.status);
  } finally {
    await store.close();
  }
}

async function storedTasks(url: string, pid: string): Promise<TaskRow[]> {
  const store = await openStore(url);
  try {
    return (await store.tasks.query({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] } })).rows;
  } finally {
    await store.close();
  }
}

const acts = (d: ProcDetail, key: string) => d.tasks.filter((t) => t.key === key);

describe.each(SQL_BACKENDS)('crash recovery on %s (SIGKILL)', { timeout: HOST_TEST_BUDGET_MS }, (backend) => {
  const fresh = async (): Promise<string> => {
    const db = await createTestDatabase(backend);
    databases.push(db);
    return db.url;
  };

  it('killed while an irq waits: the same task waits after the restart', async () => {
    const url = await fresh();
    const first = await host(url);
    await first.send('deploy', { source: TWO_STEPS });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'two' });
    await first.send('idle');
    const tid = first.created('a1')[0].tid;
    await first.kill();

    const second = await host(url);
    await second.send('idle');
    expect(second.messages).toEqual([]);
    await second.send('act', { pid, tid, action: 'complete' });
    await second.send('idle');
    await second.send('act', { pid, tid: second.created('a2')[0].tid, action: 'complete' });
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.tid === '$')!.data.n).toBe(1);
    await second.stop();
  });

  it.each([
    ['on the engine thread', '0'],
    ['on a code worker', '1'],
  ])('killed while a code act runs (%s): it runs again, once', async (_where, workers) => {
    const url = await fresh();
    const first = await host(url, 'code:running', { ACTS_CODE_WORKERS: workers });
    await first.send('deploy', { source: TWO_STEPS });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'two' });
    await first.send('idle');
    const tid = first.created('a1')[0].tid;
    await expect(first.send('act', { pid, tid, action: 'complete' })).rejects.toThrow(/exited/);
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await host(url, undefined, { ACTS_CODE_WORKERS: workers });
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(acts(detail, 'bump').map((t) => t.state)).toEqual(['completed']);
    expect(detail.tasks.find((t) => t.tid === '$')!.data.n).toBe(1);
    expect(acts(detail, 'a2').map((t) => t.state)).toEqual(['interrupted']);
    expect(await outboxStatuses(url)).toEqual(['done']);
    await second.stop();
  });

  it('killed between an action record and its state write: the restart applies it', async () => {
    const url = await fresh();
    const first = await host(url, 'action:recorded');
    await first.send('deploy', { source: TWO_STEPS });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'two' });
    await first.send('idle');
    const tid = first.created('a1')[0].tid;
    await expect(first.send('act', { pid, tid, action: 'complete' })).rejects.toThrow(/exited/);

    const second = await host(url);
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(acts(detail, 'a1').map((t) => t.state)).toEqual(['completed']);
    expect(acts(detail, 'a2').map((t) => t.state)).toEqual(['interrupted']);
    expect(second.created('a2')).toHaveLength(1);
    expect(await outboxStatuses(url)).toEqual(['done']);
    await second.stop();
  });

  it('killed after the state write, before the caller heard: nothing is applied twice', async () => {
    const url = await fresh();
    const first = await host(url, 'action:applied');
    await first.send('deploy', { source: TWO_STEPS });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'two' });
    await first.send('idle');
    const tid = first.created('a1')[0].tid;
    await expect(first.send('act', { pid, tid, action: 'complete' })).rejects.toThrow(/exited/);
    expect(first.created('a2')).toHaveLength(1);

    const second = await host(url);
    await second.send('idle');
    expect(second.messages).toEqual([]);
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(acts(detail, 'bump').map((t) => t.state)).toEqual(['completed']);
    expect(acts(detail, 'a2').map((t) => t.state)).toEqual(['interrupted']);
    expect(await outboxStatuses(url)).toEqual(['done']);
    await second.stop();
  });

  it('killed while a step waits for the outputs a code worker evaluates: it is reviewed after the restart', async () => {
    const url = await fresh();
    // the step's outputs outlast their trial slice: its review waits for a worker, after the job
    // that completed its last act was written; the host dies as the worker answers
    const slowEnd = `
id: slow-end
steps:
  - id: s1
    outputs: { w: "{{ (() => { const t = Date.now(); while (Date.now() - t < 150) {} return 42 })() }}" }
    acts: [ { uses: acts.core.irq, key: a1 } ]
  - id: s2
    acts: [ { uses: acts.core.irq, key: a2 } ]
`;
    const workers = { ACTS_CODE_WORKERS: '1' };
    const first = await host(url, 'expression:answered', workers);
    await first.send('deploy', { source: slowEnd });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'slow-end' });
    await first.send('idle');
    await first.send('act', { pid, tid: first.created('a1')[0].tid, action: 'complete' }).catch(() => undefined);
    expect((await first.exited).signal).toBe('SIGKILL');
    const written = await storedTasks(url, pid);
    // written: the act completed, its step still running (s2 not created)
    expect(written.filter((t) => t.kind === 'step').map((t) => t.state)).toEqual(['running']);
    expect(written.filter((t) => t.kind === 'act').map((t) => t.state)).toEqual(['completed']);

    const second = await host(url, undefined, workers);
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(detail.tasks.find((t) => t.nid === 's1')?.state).toBe('completed');
    expect(detail.tasks.find((t) => t.tid === '$')!.data.w).toBe(42);
    expect(acts(detail, 'a2').map((t) => t.state)).toEqual(['interrupted']);
    await second.stop();
  });

  it('killed in the middle of a parallel fan-out: every branch finishes once', async () => {
    const url = await fresh();
    const fan = `
id: fan
inputs: { items: [1, 2, 3, 4] }
steps:
  - id: s1
    acts:
      - uses: acts.core.parallel
        params:
          in: '{{ items }}'
          acts:
            - { uses: acts.transform.code, key: work, params: 'return { done: $value }' }
            - { uses: acts.core.irq, key: approve }
  - { id: s2, acts: [ { uses: acts.core.irq, key: end } ] }
`;
    // two branches are answered; the answer to the third is recorded when the engine dies
    const first = await host(url, 'action:recorded#3');
    await first.send('deploy', { source: fan });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'fan' });
    await first.send('idle');
    const approvals = first.created('approve');
    expect(approvals).toHaveLength(4);
    for (const a of approvals.slice(0, 2)) await first.send('act', { pid, tid: a.tid, action: 'complete' });
    await expect(first.send('act', { pid, tid: approvals[2].tid, action: 'complete' })).rejects.toThrow(/exited/);
    expect((await first.exited).signal).toBe('SIGKILL');
    const written = await storedTasks(url, pid);
    expect(written.filter((t) => t.state === 'interrupted')).toHaveLength(2);

    const second = await host(url);
    await second.send('idle');
    let detail = await second.send<ProcDetail>('proc', { pid });
    expect(acts(detail, 'approve').map((t) => t.state).sort()).toEqual(['completed', 'completed', 'completed', 'interrupted']);
    await second.send('act', { pid, tid: acts(detail, 'approve').find((t) => t.state === 'interrupted')!.tid, action: 'complete' });
    await second.send('idle');
    detail = await second.send<ProcDetail>('proc', { pid });
    expect(acts(detail, 'work').map((t) => t.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(acts(detail, 'work').map((t) => t.data.done).sort()).toEqual([1, 2, 3, 4]);
    expect(acts(detail, 'approve').map((t) => t.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(acts(detail, 'end').map((t) => t.state)).toEqual(['interrupted']);
    expect(await outboxStatuses(url)).toEqual(['done', 'done', 'done', 'done']);
    await second.stop();
  });

  it('killed while work waits in the overflow outbox: nothing is lost after the restart', async () => {
    const url = await fresh();
    const wide = `
id: wide
steps:
  - id: s1
    acts:
      - { uses: acts.core.parallel, params: { in: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], acts: [ { uses: acts.core.irq, key: item } ] } }
`;
    // one lane holding 2 jobs: the fan-out's 12 branches overflow into exec records; the host is
    // killed as the first durable record is about to go back into the lane
    const first = await host(url, 'overflow:replay', { ACTS_QUEUE_CAP: '2' });
    await first.send('deploy', { source: wide });
    await first.send<{ pid: string }>('start', { mid: 'wide' }).catch(() => undefined);
    await first.exited;
    const pending = (await outboxRows(url)).filter((o) => o.type === 'exec' && o.status !== 'done');
    expect(pending.length).toBeGreaterThan(0);
    const pid = pending[0].pid;

    const second = await host(url);
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(acts(detail, 'item').map((t) => t.state)).toEqual(Array(12).fill('interrupted'));
    expect((await outboxRows(url)).filter((o) => o.status !== 'done')).toEqual([]);
    await second.stop();
  });

  it('a corrupt row fails only its own process after a restart', async () => {
    const url = await fresh();
    const first = await host(url);
    await first.send('deploy', { source: TWO_STEPS });
    const bad = (await first.send<{ pid: string }>('start', { mid: 'two' })).pid;
    const good = (await first.send<{ pid: string }>('start', { mid: 'two' })).pid;
    await first.send('idle');
    await first.kill();
    await execSql(url, `UPDATE tasks SET data = '{not json' WHERE pid = '${bad}'`);

    const second = await host(url);
    await second.send('idle');
    const stored = await storedProc(url, bad);
    expect(stored?.state).toBe('error');
    expect(stored?.err?.message).toMatch(/cannot continue process/);
    const detail = await second.send<ProcDetail>('proc', { pid: good });
    await second.send('act', { pid: good, tid: acts(detail, 'a1')[0].tid, action: 'complete' });
    await second.send('idle');
    expect(acts(await second.send<ProcDetail>('proc', { pid: good }), 'a2').map((t) => t.state)).toEqual(['interrupted']);
    await second.stop();
  });
});
