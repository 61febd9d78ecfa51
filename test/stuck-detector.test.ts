/**
 * The stuck-process detector in the runtime (issue 9, item 5), on a real damaged process
 * (helpers/stuck-scene.ts: an interrupted act's row deleted while no engine ran) on memory,
 * SQLite and PostgreSQL: the first tick after recovery finds it; it is reported once across
 * ticks (one error line, one `stuck` event, the counter), marked in its row (`stuck_since`,
 * the `stuck: true` filter), the mark survives a restart, and is cleared when the process moves
 * again or is aborted; a healthy waiting process is never reported. Then over real HTTP on
 * SQLite: processes.list/get, health.get, the socket health feed and /metrics.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../server/runtime/engine.ts';
import type { EngineEvents } from '../server/runtime/events.ts';
import type { Logger } from '../server/engine/logger.ts';
import { MemoryStore } from '../server/store/contract/memory.ts';
import type { Query, Store } from '../server/store/contract/types.ts';
import { openStore } from '../server/store/open-store.ts';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/databases.ts';
import { borrowed } from './helpers/harness.ts';
import { connected, join, SocketLog, startTestServer } from './helpers/server.ts';
import { makeStuckScene, type StuckScene } from './helpers/stuck-scene.ts';

/** A logger that keeps its lines, by level. */
function recordingLogger(): Logger & { lines: Array<{ level: string; text: string }> } {
  const lines: Array<{ level: string; text: string }> = [];
  const at = (level: string) => (text: string) => void lines.push({ level, text });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function recorded<K extends keyof EngineEvents>(engine: Engine, event: K): Array<EngineEvents[K]> {
  const seen: Array<EngineEvents[K]> = [];
  engine.on(event, (payload) => void seen.push(payload));
  return seen;
}

const STUCK_ONLY: Query = { filter: { type: 'and', exprs: [{ key: 'stuck_since', op: 'gt', value: 0 }] } };

const databases: TestDatabase[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const db of databases.splice(0)) await db.drop();
});

/** How a test opens its backend's store (again and again, as engines come and go). */
async function storeOpener(backend: (typeof BACKENDS)[number]): Promise<() => Promise<Store>> {
  if (backend === 'memory') {
    const memory = new MemoryStore();
    return async () => borrowed(memory);
  }
  const db = await createTestDatabase(backend);
  databases.push(db);
  return () => openStore(db.url);
}

async function engineOn(open: () => Promise<Store>, logger?: Logger): Promise<Engine> {
  const engine = await Engine.create({ store: await open(), autoTick: false, logger });
  engines.push(engine);
  return engine;
}

describe.each(BACKENDS)('stuck processes (%s)', (backend) => {
  let open: () => Promise<Store>;
  let scene: StuckScene;

  async function prepare(): Promise<void> {
    open = await storeOpener(backend);
    scene = await makeStuckScene(open);
  }

  it('is reported once across ticks and marked in its row; a healthy waiting process never is', async () => {
    await prepare();
    const log = recordingLogger();
    const engine = await engineOn(open, log);
    const stuck = recorded(engine, 'stuck');
    expect((await engine.tick()).stuck).toBe(1);
    expect((await engine.tick()).stuck).toBe(1);
    expect((await engine.tick()).stuck).toBe(1);
    await engine.idle();

    expect(stuck).toEqual([{ pid: scene.stuck, mid: 'stuck-demo', since: expect.any(Number), tasks: expect.any(Array) }]);
    const since = stuck[0].since;
    expect(since).toBeGreaterThan(0);
    expect(stuck[0].tasks.join('\n')).toMatch(/^\$ stuck-demo workflow running\n\S+ review step running$/);
    const lines = log.lines.filter((l) => l.text.includes(scene.stuck));
    expect(lines).toEqual([{ level: 'error', text: expect.stringMatching(/^process \S+ \(model stuck-demo\) is stuck: nothing can move it .*; abort it\. Tasks: \$ stuck-demo workflow running; \S+ review step running$/) }]);
    expect(engine.stats()).toMatchObject({ stuckProcesses: 1, stuckDetected: 1 });
    expect(engine.health().stuck).toEqual({ count: 1, pids: [scene.stuck] });

    expect((await engine.procs.list(STUCK_ONLY)).rows.map((r) => [r.id, r.stuck_since])).toEqual([[scene.stuck, since]]);
    expect((await engine.procs.get(scene.stuck)).stuck_since).toBe(since);
    expect((await engine.procs.get(scene.healthy)).stuck_since).toBe(0);
  });

  it('the mark survives a restart; aborting the process clears it', async () => {
    await prepare();
    const first = await engineOn(open);
    await first.tick();
    await first.idle();
    const since = (await first.procs.get(scene.stuck)).stuck_since;
    await first.close();

    const engine = await engineOn(open);
    expect((await engine.procs.list(STUCK_ONLY)).rows.map((r) => r.id)).toEqual([scene.stuck]);
    const stuck = recorded(engine, 'stuck');
    const unstuck = recorded(engine, 'unstuck');
    expect((await engine.tick()).stuck).toBe(1);
    expect(stuck).toEqual([expect.objectContaining({ pid: scene.stuck, since })]);

    await engine.procs.abort(scene.stuck);
    expect(unstuck).toEqual([{ pid: scene.stuck, mid: 'stuck-demo', since, reason: 'finished' }]);
    expect(engine.health().stuck).toEqual({ count: 0, pids: [] });
    const [row] = (await engine.procs.list({ filter: { type: 'and', exprs: [{ key: 'id', op: 'eq', value: scene.stuck }] } })).rows;
    expect(row).toMatchObject({ state: 'aborted', stuck_since: 0 });
    expect((await engine.procs.list(STUCK_ONLY)).count).toBe(0);
    expect((await engine.tick()).stuck).toBe(0);
    expect(stuck).toHaveLength(1);
  });

  it('a process that moves again is cleared (an act pushed into its step) and completes', async () => {
    await prepare();
    const engine = await engineOn(open);
    const unstuck = recorded(engine, 'unstuck');
    await engine.tick();
    const step = (await engine.tasks.list(scene.stuck)).find((t) => t.kind === 'step')!;
    await engine.act.push(scene.stuck, step.tid, { uses: 'acts.core.irq', key: 'rescue' });
    expect((await engine.tick()).stuck).toBe(0);
    await engine.idle();
    expect(unstuck).toEqual([expect.objectContaining({ pid: scene.stuck, reason: 'moved' })]);
    expect((await engine.procs.get(scene.stuck)).stuck_since).toBe(0);
    expect((await engine.procs.list(STUCK_ONLY)).count).toBe(0);
    const rescue = (await engine.tasks.list(scene.stuck)).find((t) => t.key === 'rescue')!;
    await engine.act.complete(scene.stuck, rescue.tid);
    expect((await engine.procs.wait(scene.stuck)).state).toBe('completed');
    expect((await engine.tick()).stuck).toBe(0);
  });
});

describe('stuck processes through the API (SQLite)', () => {
  it('processes.list filters them, rows and processes.get carry stuck_since, health and /metrics count them', async () => {
    const db = await createTestDatabase('sqlite');
    const scene = await makeStuckScene(() => openStore(db.url));
    const t = await startTestServer({ database: db, live: { healthIntervalMs: 100 } });
    try {
      await t.engine.tick();
      await t.engine.idle();
      const viewer = t.as('viewer');
      const stuckRows = await viewer.processes.list.query({ stuck: true });
      expect(stuckRows.rows.map((r) => r.pid)).toEqual([scene.stuck]);
      const since = stuckRows.rows[0].stuck_since;
      expect(since).toBeGreaterThan(0);
      expect((await viewer.processes.list.query({ stuck: false })).rows.map((r) => [r.pid, r.stuck_since])).toEqual([[scene.healthy, 0]]);
      expect((await viewer.processes.get.query({ pid: scene.stuck })).process.stuck_since).toBe(since);
      expect((await viewer.processes.summary.query({ pid: scene.stuck })).process.stuck_since).toBe(since);
      expect((await viewer.health.get.query()).stuck).toEqual({ count: 1, pids: [scene.stuck] });

      const socket = t.socket('viewer');
      const feed = new SocketLog(socket);
      await connected(socket);
      await join(socket, 'health');
      expect(await feed.waitFor('health')).toMatchObject({ stuck: { count: 1, pids: [scene.stuck] } });

      const metrics = await (await fetch(`${t.url}/metrics`)).text();
      expect(metrics).toContain('acts_stuck_processes 1');
      expect(metrics).toContain('acts_stuck_processes_detected_total 1');

      await t.as('operator').processes.abort.mutate({ pid: scene.stuck });
      expect((await viewer.processes.list.query({ stuck: true })).count).toBe(0);
      expect((await viewer.health.get.query()).stuck.count).toBe(0);
      const after = await (await fetch(`${t.url}/metrics`)).text();
      expect(after).toContain('acts_stuck_processes 0');
      expect(after).toContain('acts_stuck_processes_detected_total 1');
    } finally {
      await t.close();
    }
  });
});
