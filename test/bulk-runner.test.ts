/**
 * The bulk action runner (server/api/bulk/jobs.ts) against the engine's back-pressure: a run whose
 * call is refused with `engine.busy` is tried again until it is accepted — not a result — and the
 * job counts the retries; any other refusal is the run's result with its code; the job ends with
 * ONE audit entry. The runs and the audit log are real (SQLite); the per-run call is the test's,
 * refusing as a saturated engine would.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import type { ApiServices } from '../server/api/context.ts';
import { BulkJobs } from '../server/api/bulk/jobs.ts';
import type { BulkOperation } from '../server/api/bulk/operations.ts';
import { eventually } from './helpers/eventually.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const waits = `id: waits
name: Waits
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: ask }
`;

describe('bulk runner', () => {
  let t: TestServer;
  let services: ApiServices;
  const pids: string[] = [];

  beforeAll(async () => {
    t = await startTestServer({ backend: 'sqlite' });
    await t.as('designer').models.deploy.mutate({ source: waits });
    for (let i = 0; i < 3; i++) pids.push((await t.as('operator').processes.start.mutate({ mid: 'waits' })).pid);
    await t.engine.idle();
    services = { engine: t.engine, audit: t.audit, log: pino({ level: 'silent' }) } as unknown as ApiServices;
  });
  afterAll(() => t?.close());

  it('tries a run refused with engine.busy again until it is accepted; other refusals are results', async () => {
    const calls = new Map<string, number>();
    const op: BulkOperation = {
      audit: 'proc.bulk_test',
      skips: () => false,
      apply: async (_services, _caller, pid) => {
        const n = (calls.get(pid) ?? 0) + 1;
        calls.set(pid, n);
        if (pid === pids[0] && n <= 3) throw new ActError('engine.busy', 'the store writer is saturated; retry shortly', { retryable: true });
        if (pid === pids[1]) throw new ActError('action.refused', 'cannot do that');
        await t.engine.procs.abort(pid);
      },
    };
    const caller = { userId: t.users.operator.id, name: 'operator', roles: ['operator'] } as never;
    const job = new BulkJobs().start(services, caller, 'abort', { pids }, pids, op);
    await eventually(() => job.state === 'done', 'the job ended', 1000);
    expect(calls.get(pids[0])).toBe(4);
    expect(job.busyRetries).toBe(3);
    expect(job.counts).toEqual({ done: 2, skipped: 0, refused: 1 });
    expect(job.results.find((r) => r.pid === pids[1])).toMatchObject({ outcome: 'refused', code: 'action.refused' });
    expect((await t.as('viewer').processes.state.query({ pid: pids[0] })).state).toBe('aborted');
    const entries = await t.audit.query({ action: 'proc.bulk_test' });
    expect(entries.count).toBe(1);
    expect(entries.rows[0].detail).toMatchObject({ total: 3, counts: { done: 2, skipped: 0, refused: 1 }, refused: [{ pid: pids[1], code: 'action.refused' }] });
  });
});
