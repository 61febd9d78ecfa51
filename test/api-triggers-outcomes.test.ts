/** `triggers.outcomes`: each schedule with its last run's outcome; failing (errored/aborted last run, or overdue) first. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, startTestServer, type TestServer } from './helpers/server.ts';

const nightly = (id: string) => `id: ${id}
name: Nightly ${id}
on:
  - { id: night, uses: acts.event.schedule, cron: '0 0 3 * * *' }
steps:
  - id: s
    acts:
      - { uses: acts.core.irq, key: wait }
`;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  for (const id of ['calm', 'broken', 'stuck']) await t.as('designer').models.deploy.mutate({ source: nightly(id) });
});
afterAll(async () => {
  await t?.close();
});

async function setRow(id: string, change: Record<string, unknown>): Promise<void> {
  const row = (await t.store.events.find(id))!;
  await t.store.events.update({ ...row, ...change });
}

describe('triggers.outcomes', () => {
  it('reports the last run of each schedule and which ones fail, failing first', async () => {
    const before = Date.now();
    await setRow('calm:night', { last_run: before });
    await setRow('broken:night', { last_run: before });
    const calm = (await t.as('operator').triggers.fire.mutate({ id: 'calm:night' })) as { pid: string };
    const broken = (await t.as('operator').triggers.fire.mutate({ id: 'broken:night' })) as { pid: string };
    await t.engine.idle();
    await t.as('operator').processes.abort.mutate({ pid: broken.pid });
    await setRow('stuck:night', { next_run: before - 10 * 60_000 });

    const outcomes = await t.as('viewer').triggers.outcomes.query();
    expect(outcomes.failing).toBe(2);
    expect(outcomes.rows.slice(0, 2).map((r) => r.id).sort()).toEqual(['broken:night', 'stuck:night']);
    const byId = Object.fromEntries(outcomes.rows.map((r) => [r.id, r]));
    expect(byId['calm:night']).toMatchObject({ failing: false, reason: null, cron: '0 0 3 * * *', lastRun: { pid: calm.pid, state: 'running' } });
    expect(byId['broken:night']).toMatchObject({ failing: true, reason: 'its last run was aborted', lastRun: { pid: broken.pid, state: 'aborted' } });
    expect(byId['stuck:night']).toMatchObject({ failing: true, lastRun: null, reason: expect.stringContaining('overdue') });

    await t.as('designer').triggers.setEnabled.mutate({ id: 'stuck:night', enabled: false });
    expect((await t.as('viewer').triggers.outcomes.query({ mid: 'stuck' })).rows[0]).toMatchObject({ failing: false, enabled: false });
    expect((await apiError(t.as('anon').triggers.outcomes.query())).code).toBe('auth.required');
  });
});
