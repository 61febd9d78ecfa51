/**
 * An engine process killed (SIGKILL) while an `acts.core.http` call is in flight (issue 13, item 1):
 * a new engine on the same SQLite database makes the call again — at least once, never lost — and
 * the act completes with the second answer.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProcDetail } from '../server/runtime/info.ts';
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { EngineProcess, HOST_TEST_BUDGET_MS } from './helpers/engine-process.ts';
import { eventually } from './helpers/eventually.ts';
import { json, startPeer, type Peer } from './helpers/http-peer.ts';

const CALL = `
id: call
inputs: { base: '' }
steps:
  - id: s1
    acts: [ { uses: acts.core.http, key: call, params: { url: '{{ base }}/hold', method: PUT, body: { n: 1 } } } ]
`;

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function host(url: string): Promise<EngineProcess> {
  const h = new EngineProcess(url);
  cleanup.push(() => h.kill());
  await Promise.race([h.ready, h.exited.then(() => Promise.reject(new Error(`host died: ${h.stderr}`)))]);
  return h;
}

describe('acts.core.http and a crash (SQLite)', { timeout: HOST_TEST_BUDGET_MS }, () => {
  it('killed while its call is in flight: the restart calls again and the act completes', async () => {
    const db: TestDatabase = await createTestDatabase('sqlite');
    cleanup.push(() => db.drop());
    const peer: Peer = await startPeer();
    cleanup.push(() => peer.close());
    const held: ServerResponse[] = [];
    peer.route('/hold', (_req, res) => void held.push(res));

    const first = await host(db.url);
    await first.send('deploy', { source: CALL });
    const { pid } = await first.send<{ pid: string }>('start', { mid: 'call', options: { base: peer.base } });
    await eventually(() => held.length === 1, 'the call reached the peer', 3000);
    expect((await first.kill()) as { signal: string }).toMatchObject({ signal: 'SIGKILL' });

    peer.route('/hold', (_req, res) => json(res, 200, { answered: true }));
    const second = await host(db.url);
    await second.send('idle');
    const detail = await second.send<ProcDetail>('proc', { pid });
    expect(detail.state).toBe('completed');
    expect(detail.tasks.find((t) => t.key === 'call')?.data).toMatchObject({ status: 200, data: { answered: true } });
    expect(peer.seen.filter((s) => s.path === '/hold').map((s) => s.body)).toEqual(['{"n":1}', '{"n":1}']);
    await second.stop();
  });
});
