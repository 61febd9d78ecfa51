/**
 * Votes survive a crash (issue 15 item 5, engine/votes.ts): an engine host is killed with SIGKILL
 * at the fault points of a vote action — after its durable action record, before its state write
 * (the restart applies it: no vote lost), and after its state write, before the caller heard (the
 * restart does not apply it again: no vote counted twice) — and once while a recorded vote waits;
 * a new host on the same database goes on counting.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcDetail } from '../server/runtime/info.ts';
import { VOTES_KEY } from '../vocab/quorum.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS, readyHost } from './helpers/engine-process.ts';

const databases: TestDatabase[] = [];
const hosts: EngineProcess[] = [];
afterAll(async () => {
  for (const h of hosts) await h.kill();
  for (const db of databases) await db.drop();
});

const TWO_OF_THREE = `
id: votes
steps:
  - id: s1
    acts:
      - { uses: acts.core.irq, key: sign, params: { candidate_groups: [board], quorum: { need: 2 } } }
  - id: s2
    acts:
      - { uses: acts.core.irq, key: after }
`;

const vote = (pid: string, tid: string, name: string) => ({ pid, tid, action: 'vote', options: { decision: 'approve', $voter: { name, id: `id-${name}` } } });
const sign = (d: ProcDetail) => d.tasks.find((t) => t.key === 'sign')!;
const votersOf = (d: ProcDetail) => ((sign(d).data[VOTES_KEY] ?? []) as Array<{ user: string }>).map((v) => v.user);

describe.each(SQL_BACKENDS)('votes across a crash on %s (SIGKILL)', { timeout: HOST_TEST_BUDGET_MS }, (backend) => {
  const fresh = async (): Promise<string> => {
    const db = await createTestDatabase(backend);
    databases.push(db);
    return db.url;
  };

  async function opened(url: string, crashAt?: string) {
    const first = await readyHost(hosts, url, crashAt);
    await first.send('deploy', { source: TWO_OF_THREE });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'votes' });
    await first.send('idle');
    return { first, pid, tid: first.created('sign')[0].tid };
  }

  it('killed while a vote is recorded and the act waits: the vote is there after the restart, and counts', async () => {
    const url = await fresh();
    const { first, pid, tid } = await opened(url);
    await first.send('act', vote(pid, tid, 'carol'));
    await first.kill();
    const second = await readyHost(hosts, url);
    await second.send('idle');
    expect(votersOf(await second.send<ProcDetail>('proc', { pid }))).toEqual(['carol']);
    await expect(second.send('act', vote(pid, tid, 'carol'))).rejects.toThrow(/already voted/);
    await second.send('act', vote(pid, tid, 'erin'));
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(sign(detail)).toMatchObject({ state: 'completed', outputs: { approved_by: ['carol', 'erin'] } });
    expect(second.created('after')).toHaveLength(1);
    await second.stop();
  });

  it('killed between a vote\'s action record and its state write: the restart applies it (no vote lost)', async () => {
    const url = await fresh();
    const { first, pid, tid } = await opened(url, 'action:recorded');
    await expect(first.send('act', vote(pid, tid, 'carol'))).rejects.toThrow(/exited/);
    expect((await first.exited).signal).toBe('SIGKILL');
    const second = await readyHost(hosts, url);
    await second.send('idle');
    expect(votersOf(await second.send<ProcDetail>('proc', { pid }))).toEqual(['carol']);
    await second.stop();
  });

  it('killed after a deciding vote was written, before the caller heard: it is not counted again', async () => {
    const url = await fresh();
    const { first, pid, tid } = await opened(url);
    await first.send('act', vote(pid, tid, 'carol'));
    await first.stop();
    const crashing = await readyHost(hosts, url, 'action:applied');
    await crashing.send('idle');
    await expect(crashing.send('act', vote(pid, tid, 'erin'))).rejects.toThrow(/exited/);
    const third = await readyHost(hosts, url);
    await third.send('idle');
    const detail = await third.send<ProcDetail>('proc', { pid });
    expect(votersOf(detail)).toEqual(['carol', 'erin']);
    expect(sign(detail)).toMatchObject({ state: 'completed', outputs: { approved_by: ['carol', 'erin'] } });
    expect(detail.tasks.filter((t) => t.key === 'after').map((t) => t.state)).toEqual(['interrupted']);
    await third.stop();
  });
});
