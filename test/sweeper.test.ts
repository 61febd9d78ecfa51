/**
 * The sweeper (spec 5.6) on every backend: a finished process stays queryable while a delivery
 * waits for its ack; once every delivery settled its rows disappear within two ticks. Without
 * `sweepAfterSecs` the history is kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, useTestStore } from './helpers/databases.ts';
import { borrowed, createHarness, type Harness } from './helpers/harness.ts';

const FLOW = 'id: swept\nsteps: [ { id: s1, acts: [ { uses: acts.core.msg, key: note } ] } ]';

describe.each(BACKENDS)('sweeper on %s', (backend) => {
  const store = useTestStore(backend);
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('waits for every delivery to settle, then deletes the process rows', async () => {
    h = await createHarness({ store: borrowed(store()), sweepAfterSecs: 0 });
    const deliveries: string[] = [];
    h.engine.channel({ id: 'audit', ack: true, type: 'workflow' }).onMessage((m) => void deliveries.push(m.delivery_id!));
    await h.deploy(FLOW);
    const pid = await h.start('swept');
    expect((await h.proc(pid)).state).toBe('completed');
    await h.tick(1000);
    expect((await h.proc(pid)).state).toBe('completed');
    for (const id of new Set(deliveries)) await h.engine.messages.ack(id);
    await h.tick(1000);
    await h.tick(1000);
    await expect(h.proc(pid)).rejects.toMatchObject({ code: 'process.not_found' });
    const left = await h.engine.messages.list({ filter: { type: 'and', exprs: [{ key: 'pid', op: 'eq', value: pid }] } });
    expect(left.count).toBe(0);
    expect((await h.engine.messages.deliveries()).count).toBe(0);
  });

  it('keeps the history when no sweep delay is configured', async () => {
    h = await createHarness({ store: borrowed(store()) });
    await h.deploy(FLOW);
    const pid = await h.start('swept');
    await h.tick(60_000);
    expect((await h.proc(pid)).state).toBe('completed');
  });
});
