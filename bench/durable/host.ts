/**
 * A benchmark engine host (like test/hosts/engine-host.ts, with the engine's sizing from the
 * environment): an Engine on ACTS_STORE with ACTS_CACHE_CAP / ACTS_QUEUE_CAP, driven by JSON lines
 * on stdin, answering JSON lines on stdout. Run with --expose-gc so RSS is read after a collection.
 * ACTS_TICK_SECS turns the timer on (ticks renew the instance lease and take over processes of
 * lapsed instances); ACTS_LEASE_MS sets the lease where the engine has one.
 *
 * First line: {ready: true, createMs, resident, rss} once Engine.create (which recovers) returned.
 * Commands:  {id, cmd: 'deploy', source} | {id, cmd: 'startMany', mid, n, concurrency, prefix} |
 *            {id, cmd: 'memory'} | {id, cmd: 'count', state} | {id, cmd: 'completeIrq', pid} |
 *            {id, cmd: 'resident'} | {id, cmd: 'idle'}
 * Replies:   {id, ok: true, result} | {id, ok: false, error}
 */
import { performance } from 'node:perf_hooks';
import { Engine, type EngineOptions } from '../../server/runtime/engine.ts';
import { openStore } from '../../server/store/open-store.ts';
import { serveCommands, writeLine, type Command } from '../../test/hosts/json-lines.ts';


function memory(): { rss: number; heapUsed: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const store = await openStore(process.env.ACTS_STORE ?? 'memory:');
const t = performance.now();
const tickSecs = Number(process.env.ACTS_TICK_SECS ?? 0);
const options: EngineOptions & { leaseMs?: number } = {
  store,
  autoTick: tickSecs > 0,
  tickIntervalSecs: tickSecs > 0 ? tickSecs : undefined,
  leaseMs: process.env.ACTS_LEASE_MS ? Number(process.env.ACTS_LEASE_MS) : undefined,
  cacheCap: Number(process.env.ACTS_CACHE_CAP ?? 1024),
  schedulerQueueCap: Number(process.env.ACTS_QUEUE_CAP ?? 4096),
  logger: { debug() {}, info() {}, warn: (m) => process.stderr.write(`[warn] ${m}\n`), error: (m) => process.stderr.write(`[error] ${m}\n`) },
};
const engine = await Engine.create(options);
writeLine({ ready: true, createMs: performance.now() - t, resident: engine.stats().processes, ...memory() });

/** Starts `n` processes from `concurrency` clients; resolves with the time the starts took. */
async function startMany(mid: string, n: number, concurrency: number, prefix: string): Promise<{ startMs: number; idleMs: number }> {
  const t0 = performance.now();
  let next = 0;
  const client = async () => {
    while (next < n) await engine.procs.start(mid, { pid: `${prefix}${next++}` });
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const startMs = performance.now() - t0;
  await engine.idle();
  return { startMs, idleMs: performance.now() - t0 };
}

async function run(c: Command): Promise<unknown> {
  switch (c.cmd) {
    case 'deploy':
      return engine.models.deploy(c.source as string);
    case 'startMany':
      return startMany(c.mid as string, c.n as number, c.concurrency as number, c.prefix as string);
    case 'memory':
      return memory();
    case 'count':
      return engine.procs.count(c.state as string);
    case 'completeIrq': {
      // Completes the process's waiting irq and waits for the process to finish.
      const pid = c.pid as string;
      const irq = (await engine.tasks.list(pid)).find((task) => task.uses === 'acts.core.irq' && task.state === 'interrupted');
      if (!irq) throw new Error(`process ${pid} has no waiting irq`);
      const finished = engine.procs.wait(pid);
      await engine.act.complete(pid, irq.tid);
      return (await finished).state;
    }
    case 'resident':
      return engine.stats().processes;
    case 'idle':
      return engine.idle();
    default:
      throw new Error(`unknown command ${c.cmd}`);
  }
}

await serveCommands(run);
await engine.close();
