/**
 * API: the runs list's search (issue 17 item 8) — one term finds a run by its id (exact or a
 * prefix), by its business key (the key it was started with) or by a value of its start inputs
 * (case-insensitive, nested values too, not the input names); it combines with the other filters
 * and pages like the list. Over real HTTP on SQLite and PostgreSQL, and on the in-memory store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const order = `id: order
name: Order
inputs: { customer: '', amount: 0 }
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: check }
`;

describe.each(['sqlite', 'postgresql', 'memory'] as const)('runs search on %s', (backend) => {
  let t: TestServer;
  const pids: Record<string, string> = {};

  const search = (term: string, more: Record<string, unknown> = {}) => t.as('viewer').processes.list.query({ search: term, ...more });
  const found = async (term: string, more: Record<string, unknown> = {}) => (await search(term, more)).rows.map((r) => r.pid).sort();

  beforeAll(async () => {
    t = await startTestServer({ backend });
    await t.as('designer').models.deploy.mutate({ source: order });
    const op = t.as('operator');
    pids.ada = (await op.processes.start.mutate({ mid: 'order', inputs: { pid: 'run-ada-1', customer: 'Ada Lovelace', amount: 120, address: { city: 'Zürich' } }, idempotencyKey: 'ORDER-4711' })).pid;
    pids.bob = (await op.processes.start.mutate({ mid: 'order', inputs: { pid: 'run-bob-2', customer: 'Bob', amount: 4711 } })).pid;
    pids.cy = (await op.processes.start.mutate({ mid: 'order', inputs: { pid: 'other-3', customer: 'Cy', tags: ['urgent', 'vip'] } })).pid;
    await op.processes.abort.mutate({ pid: pids.cy });
    await t.engine.idle();
  });
  afterAll(() => t?.close());

  it('finds a run by its exact id and by a prefix of it', async () => {
    expect(await found('run-ada-1')).toEqual([pids.ada]);
    expect(await found('run-')).toEqual([pids.ada, pids.bob].sort());
    expect(await found('un-ada')).toEqual([]); // a prefix, not any part of the id
  });

  it('finds a run by its business key (the key it was started with)', async () => {
    expect(await found('ORDER-4711')).toEqual([pids.ada]);
  });

  it('finds a run by a value of its inputs, nested ones too, ignoring case', async () => {
    expect(await found('lovelace')).toEqual([pids.ada]);
    expect(await found('ZÜRICH')).toEqual([pids.ada]);
    expect(await found('vip')).toEqual([pids.cy]);
    expect(await found('4711')).toEqual([pids.bob]); // Bob's amount; a business key matches only whole (Ada's is ORDER-4711)
    expect(await found('customer')).toEqual([]); // the names of inputs are not searched
  });

  it('combines with the other filters, counts and pages like the list', async () => {
    expect(await found('Cy', { state: 'aborted' })).toEqual([pids.cy]);
    expect(await found('Cy', { state: 'running' })).toEqual([]);
    const first = await search('run-', { limit: 1, sort: { field: 'name', order: 'asc' } });
    expect(first.count).toBe(2);
    expect(first.rows).toHaveLength(1);
    const second = await search('run-', { limit: 1, offset: 1, sort: { field: 'name', order: 'asc' } });
    expect([first.rows[0].pid, second.rows[0].pid].sort()).toEqual([pids.ada, pids.bob].sort());
    expect((await search('  ')).count).toBe(3); // blank: no search
  });

  it('treats LIKE wildcards as text and refuses control characters with a coded error', async () => {
    expect(await found('%')).toEqual([]);
    expect(await found('_')).toEqual([]);
    const err = await apiError(search('a\u0001b'));
    expect(err.code).toBe('input.invalid');
  });
});
