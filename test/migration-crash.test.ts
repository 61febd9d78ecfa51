/**
 * A migration batch killed mid-way (issue 16): a real engine process migrates 40 waiting
 * processes, 8 at a time, and SIGKILLs itself when the 12th migration's effects are written.
 * Read straight from the store after the kill, every process is either fully migrated (its row
 * and every task on version 2's nodes) or untouched (all on version 1's); a migration recorded but
 * not applied is applied by the next engine's recovery; every process then finishes on the path
 * of the version it runs. On SQLite and PostgreSQL.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcDetail } from '../server/runtime/info.ts';
import { openStore } from '../server/store/open-store.ts';
import { createTestDatabase, SQL_BACKENDS, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS, readyHost } from './helpers/engine-process.ts';

const V1 = `id: mig
steps:
  - { id: review, acts: [ { id: approve, uses: acts.core.irq, key: approve } ] }
  - { id: done1, acts: [ { uses: acts.core.msg, key: done1 } ] }
`;
const V2 = `id: mig
steps:
  - { id: check, acts: [ { id: approve2, uses: acts.core.irq, key: approve } ] }
  - { id: done2, acts: [ { uses: acts.core.msg, key: done2 } ] }
`;
const NODES: Record<number, Set<string>> = { 1: new Set(['$', 'review', 'approve', 'done1']), 2: new Set(['$', 'check', 'approve2', 'done2']) };
const PLAN = { ver: 2, map: { review: 'check', approve: 'approve2' } };
const COUNT = 40;

const databases: TestDatabase[] = [];
const hosts: EngineProcess[] = [];
afterAll(async () => {
  for (const h of hosts) await h.kill();
  for (const db of databases) await db.drop();
});

const host = (url: string, crashAt?: string): Promise<EngineProcess> => readyHost(hosts, url, crashAt);

/** Each process's version and the versions its tasks' nodes belong to, read from the store. */
async function storedVersions(url: string, pids: string[]): Promise<Array<{ ver: number; nodes: number[] }>> {
  const store = await openStore(url);
  try {
    const out = [];
    for (const pid of pids) {
      const row = (await store.procs.find(pid))!;
      const tasks = (await store.tasks.query({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] } })).rows;
      const nodes = tasks.map((t) => (t.tid === '$' ? row.model_ver : NODES[1].has((t.node_data as { id: string }).id) ? 1 : 2));
      expect(row.model).toContain(row.model_ver === 1 ? 'review' : 'check');
      out.push({ ver: row.model_ver, nodes: [...new Set(nodes)] });
    }
    return out;
  } finally {
    await store.close();
  }
}

describe.each(SQL_BACKENDS)('a migration batch killed mid-way on %s', (backend) => {
  it('leaves every process fully migrated or untouched; recovery applies the recorded ones; all finish', { timeout: HOST_TEST_BUDGET_MS * 2 }, async () => {
    const db = await createTestDatabase(backend);
    databases.push(db);
    const first = await host(db.url, 'action:applied#12');
    await first.send('deploy', { source: V1 });
    const pids: string[] = [];
    for (let i = 0; i < COUNT; i++) pids.push((await first.send<{ pid: string }>('start', { mid: 'mig' })).pid);
    await first.send('idle');
    await first.send('deploy', { source: V2 });
    // 8 at a time, like a bulk job; the host dies while some are in flight
    let next = 0;
    const sender = async () => {
      while (next < pids.length) {
        const pid = pids[next++];
        // a command sent after the exit gets no reply: the exit ends the wait
        await Promise.race([first.send('act', { pid, tid: '$', action: 'migrate', options: PLAN }).catch(() => undefined), first.exited]);
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    expect((await first.exited).signal).toBe('SIGKILL');

    const afterKill = await storedVersions(db.url, pids);
    for (const p of afterKill) expect(p.nodes).toEqual([p.ver]);
    const migrated = afterKill.filter((p) => p.ver === 2).length;
    expect(migrated).toBeGreaterThanOrEqual(12);
    expect(migrated).toBeLessThan(COUNT);

    const second = await host(db.url);
    await second.send('idle');
    const recovered = await storedVersions(db.url, pids);
    for (const p of recovered) expect(p.nodes).toEqual([p.ver]);
    // every migration recorded before the kill was applied by recovery, none twice
    expect(recovered.filter((p) => p.ver === 2).length).toBeGreaterThanOrEqual(migrated);
    for (const pid of pids) {
      const detail = await second.send<ProcDetail>('proc', { pid });
      const approve = detail.tasks.find((t) => t.key === 'approve' && t.state === 'interrupted')!;
      await second.send('act', { pid, tid: approve.tid, action: 'complete' });
    }
    await second.send('idle');
    for (const [i, pid] of pids.entries()) {
      const detail = await second.send<ProcDetail>('proc', { pid });
      expect(detail.state).toBe('completed');
      expect(detail.tasks.map((t) => t.nid)).toContain(recovered[i].ver === 2 ? 'done2' : 'done1');
    }
    await second.stop();
  });
});
