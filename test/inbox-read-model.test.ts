/**
 * The inbox through the read model (engine.reads, issue 10 item 12 and issue 11 item 6) on the
 * memory store, SQLite and PostgreSQL: the store pages it and filters it by who may act, so any
 * number of open tasks is listed and counted right (the inbox once read the 1,000 oldest tasks and
 * filtered those); a task leaves it with the batch of its answer; open tasks whose rows are
 * missing (written before the inbox table) are filled in by the first read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and } from '../server/store/contract/filters.ts';
import { EVERY_TASK, principalsOfCaller } from '../vocab/inbox-principals.ts';
import { BACKENDS } from './helpers/databases.ts';
import { eventually } from './helpers/eventually.ts';
import { copyProcess, rowsOf } from './helpers/process-copies.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const BULK = `
id: bulk
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: bulk, params: { assignees: [bob] } } ] }
`;

const MINE = `
id: mine
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: mine, params: { title: Mine, assignees: [alice], roles: [operator] } } ] }
`;

const OPEN = `
id: open
steps:
  - { id: s1, acts: [ { uses: acts.core.irq, key: anyone } ] }
`;

/** Bob's tasks: more than the 1,000 the inbox used to read, all older than alice's. */
const BULK_TASKS = 1_100;

const inboxIds = async (t: TestServer) => (await t.store.inbox.query({ order_by: ['id'] })).rows.map((r) => r.id).sort();

describe.each(BACKENDS)('the inbox through the read model (%s)', (backend) => {
  let t: TestServer;
  let mine: { pid: string; tid: string };

  beforeAll(async () => {
    t = await startTestServer({ backend, engine: { cacheCap: 10 } });
    for (const model of [BULK, MINE]) await t.engine.models.deploy(model);
    const { pid } = await t.engine.procs.start('bulk');
    await t.engine.idle();
    const sample = await rowsOf(t.store, pid);
    await copyProcess(t.store, sample, BULK_TASKS - 1, 'bulk-');
    // copy n starts n ms after the sample: alice's task starts after the last one
    const last = Math.max(...sample.tasks.map((x) => x.start_time)) + BULK_TASKS;
    await eventually(() => Date.now() > last, 'the copies started', 200);
    const started = await t.engine.procs.start('mine');
    await t.engine.idle();
    const task = (await t.engine.tasks.list(started.pid)).find((x) => x.state === 'interrupted')!;
    mine = { pid: started.pid, tid: task.tid };
  }, 120_000);
  afterAll(() => t?.close());

  it('lists the newest of more than 1,000 open tasks to its assignee, counted right', async () => {
    const alice = await t.as('alice').inbox.list.query({ limit: 50 });
    expect(alice).toMatchObject({ count: 1, rows: [{ pid: mine.pid, tid: mine.tid, mid: 'mine', params: { title: 'Mine' } }] });
    const admin = await t.as('admin').inbox.list.query({ limit: 1, newestFirst: true });
    expect(admin).toMatchObject({ count: BULK_TASKS + 1, rows: [{ pid: mine.pid }] });
    expect((await t.as('admin').inbox.list.query({ limit: 50, mid: 'mine' })).count).toBe(1);
  });

  it('filters by assignment in the store: each caller counts and pages only their tasks', async () => {
    // alice's task names the operators' role too: bob and the operator see it (once)
    const bob = await t.as('bob').inbox.list.query({ limit: 3, offset: BULK_TASKS - 1 });
    expect(bob.count).toBe(BULK_TASKS + 1);
    expect(bob.rows.map((r) => r.mid)).toEqual(['bulk', 'mine']);
    expect((await t.as('bob').inbox.list.query({ limit: 1, newestFirst: true })).rows).toMatchObject([{ pid: mine.pid }]);
    expect((await t.as('operator').inbox.list.query({ limit: 50 })).count).toBe(1);
    expect((await t.as('operator').inbox.list.query({ limit: 50, mid: 'bulk' })).count).toBe(0);
  });

  it('a task leaves the inbox, and its rows the store, with the batch of its answer', async () => {
    const rows = (await inboxIds(t)).filter((id) => id.startsWith(`${mine.pid}:`));
    expect(rows).toEqual([`${mine.pid}:${mine.tid}:`, `${mine.pid}:${mine.tid}:role:operator`, `${mine.pid}:${mine.tid}:user:alice`].sort());
    await t.as('alice').tasks.complete.mutate({ pid: mine.pid, tid: mine.tid });
    expect((await t.as('alice').inbox.list.query({ limit: 50 })).count).toBe(0);
    expect((await t.as('admin').inbox.list.query({ limit: 1 })).count).toBe(BULK_TASKS);
    expect((await inboxIds(t)).filter((id) => id.startsWith(`${mine.pid}:`))).toEqual([]);
  });
});

describe.each(BACKENDS)('open tasks without inbox rows (%s)', (backend) => {
  let t: TestServer;
  afterAll(() => t?.close());

  it('are filled in by the first inbox read, with the rows a batch writes', async () => {
    t = await startTestServer({ backend });
    for (const model of [MINE, OPEN]) await t.engine.models.deploy(model);
    for (const mid of ['mine', 'mine', 'open']) await t.engine.procs.start(mid);
    await t.engine.idle();
    const written = await inboxIds(t);
    expect(written).toHaveLength(3 + 3 + 2);
    // as an engine before the inbox table left them: tasks and messages, no inbox rows
    await t.store.inbox.deleteWhere(and());
    const alice = await t.engine.reads.inbox({ principals: principalsOfCaller('alice', []), offset: 0, limit: 10 });
    expect(alice.count).toBe(3);
    expect(alice.tasks.map((m) => m.mid).sort()).toEqual(['mine', 'mine', 'open']);
    expect(await inboxIds(t)).toEqual(written);
    const bob = await t.engine.reads.inbox({ principals: principalsOfCaller('bob', []), offset: 0, limit: 10 });
    expect(bob).toMatchObject({ count: 1, tasks: [{ mid: 'open' }] });
    expect((await t.engine.reads.inbox({ principals: [EVERY_TASK], offset: 2, limit: 10 })).tasks).toHaveLength(1);
  });

  it('leave it when their process is aborted (the tasks close without an answer)', async () => {
    const { pid } = await t.engine.procs.start('open');
    await t.engine.idle();
    expect((await inboxIds(t)).filter((id) => id.startsWith(`${pid}:`))).toHaveLength(2);
    await t.engine.procs.abort(pid);
    await t.engine.idle();
    expect((await inboxIds(t)).filter((id) => id.startsWith(`${pid}:`))).toEqual([]);
    expect((await t.engine.reads.inbox({ principals: [EVERY_TASK], offset: 0, limit: 10 })).count).toBe(3);
  });
});
