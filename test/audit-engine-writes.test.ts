/**
 * The server's audit log written with the engine's store transactions (server/audit/engine-writes.ts),
 * on every backend: entries recorded while the engine writes its jobs are in the store once their
 * `record` resolved, exactly as recorded, and an engine that is closed (or whose store writer is
 * saturated) leaves its groups to a write of their own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { engineAuditLog } from '../server/audit/index.ts';
import { withEngineWrites } from '../server/audit/engine-writes.ts';
import type { AuditRow } from '../server/store/server-rows.ts';
import { ActError } from '../server/engine/errors.ts';
import { Engine } from '../server/runtime/engine.ts';
import { openStore } from '../server/store/open-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/databases.ts';

const MODEL = 'id: m\nsteps: [ { id: s1, acts: [ { uses: acts.core.irq, key: ask } ] } ]';

describe.each(BACKENDS)('audit entries with the engine writes on %s', (backend) => {
  let db: TestDatabase | undefined;
  let engine: Engine | undefined;

  afterEach(async () => {
    // closes the store too
    await engine?.close();
    await db?.drop();
  });

  it('writes each entry before its record resolves, beside the jobs of the starts it records', async () => {
    db = await createTestDatabase(backend);
    const store = await openStore(db.url);
    engine = await Engine.create({ store, autoTick: false });
    await engine.models.deploy(MODEL);
    let along = 0;
    const audit = engineAuditLog(store, { writeAlong: (part) => (along++, engine!.writeAlong(part)) });
    const started = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const { pid } = await engine!.procs.start('m', { n: i });
        await audit.record({ actor: 'u1', actor_name: 'ann', action: 'proc.start', target: pid, detail: { inputs: { n: i } }, result: 'ok' });
        // recorded: the entry is in the store already
        expect((await audit.query({ target: pid })).rows.map((r) => [r.action, r.detail])).toEqual([['proc.start', { inputs: { n: i } }]]);
        return pid;
      }),
    );
    const { count, rows } = await audit.query({ action: 'proc.start', limit: 100 });
    expect(count).toBe(20);
    expect(new Set(rows.map((r) => r.target))).toEqual(new Set(started));
    expect(rows.every((r) => r.actor === 'u1' && r.actor_name === 'ann' && r.result === 'ok')).toBe(true);
    expect(along).toBeGreaterThan(0);
  });

  it('writes a group on its own once the engine is closed or while its writer is saturated', async () => {
    const alone: AuditRow[][] = [];
    const closed = { writeAlong: () => Promise.reject(new ActError('engine.closed', 'the engine is closed')) };
    const write = withEngineWrites(closed, async (rows) => void alone.push([...rows]));
    const row: AuditRow = { id: 'a1', time: 1, actor: 'u1', actor_name: 'ann', action: 'x', target: 't', detail: null, result: 'ok' };
    await write([row]);
    expect(alone).toEqual([[row]]);
    const saturated = { writeAlong: () => Promise.reject(new ActError('engine.busy', 'the store writer is saturated')) };
    await withEngineWrites(saturated, async (rows) => void alone.push([...rows]))([row]);
    expect(alone).toEqual([[row], [row]]);
    const failing = { writeAlong: () => Promise.reject(new ActError('internal', 'the disk is full')) };
    await expect(withEngineWrites(failing, async () => undefined)([row])).rejects.toThrow('the disk is full');
  });
});
