/**
 * Throughput, latency and store-writer batch size of the 3-step workflow (set → code → irq) with
 * N concurrent clients on one engine. Each client loops: start a process (with its own pid), wait
 * for the irq `created` message, complete it, wait until the process completed.
 */
import { performance } from 'node:perf_hooks';
import { Engine } from '../../server/runtime/engine.ts';
import type { Store } from '../../server/store/contract/types.ts';
import { countBatches, percentile, THREE_STEP_YML } from './common.ts';

export interface ThroughputFigure {
  clients: number;
  processes: number;
  acts: number;
  seconds: number;
  procsPerSec: number;
  actsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  batches: number;
  rowsPerBatch: number;
  /** Mean time of one store transaction, ms. */
  batchMs: number;
  /** Share of the wall time the (serial) store writer spent inside transactions. */
  writerBusy: number;
  /** Most store batches queued behind the writer at once (sampled every 5 ms). */
  writerQueueMax: number;
  /** Act completions seen more than once for the same task (should be 0). */
  duplicateActs: number;
}

export async function measureThroughput(store: Store, clientCounts: readonly number[], seconds: number): Promise<ThroughputFigure[]> {
  const counter = countBatches(store);
  const engine = await Engine.create({ store, autoTick: false });
  await engine.models.deploy(THREE_STEP_YML);

  // irq `created` messages, resolved per pid (the waiter is registered before the start).
  const irqWaiters = new Map<string, (tid: string) => void>();
  engine.channel({ type: 'act', state: 'created', key: 'approve' }).onMessage((m) => {
    irqWaiters.get(m.pid)?.(m.tid);
    irqWaiters.delete(m.pid);
  });
  // Every act that completed (set, code, irq), by task; a second completion of a task is counted apart.
  const completedActs = new Set<string>();
  let duplicateActs = 0;
  engine.on('task', ({ task }) => {
    if (task.kind !== 'act' || task.state !== 'completed') return;
    const id = `${task.pid}:${task.tid}`;
    if (completedActs.has(id)) duplicateActs++;
    else completedActs.add(id);
  });

  let seq = 0;
  /** One process end to end; returns its start → completed latency in ms. */
  const runOne = async (): Promise<number> => {
    const pid = `bench-${++seq}`;
    const irq = new Promise<string>((resolve) => irqWaiters.set(pid, resolve));
    const t = performance.now();
    await engine.procs.start('three', { pid });
    const tid = await irq;
    const finished = engine.procs.wait(pid);
    await engine.act.complete(pid, tid);
    const done = await finished;
    if (done.state !== 'completed') throw new Error(`process ${pid} ended ${done.state}: ${done.err?.message}`);
    return performance.now() - t;
  };

  const run = async (clients: number, ms: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + ms;
    const client = async () => {
      while (performance.now() < deadline) latencies.push(await runOne());
    };
    await Promise.all(Array.from({ length: clients }, client));
    return latencies;
  };

  const figures: ThroughputFigure[] = [];
  await run(8, 300); // warm-up (JIT, sandbox, statement caches)
  for (const clients of clientCounts) {
    await engine.idle();
    counter.reset();
    completedActs.clear();
    duplicateActs = 0;
    let writerQueueMax = 0;
    const sampler = setInterval(() => (writerQueueMax = Math.max(writerQueueMax, engine.stats().writerDepth)), 5);
    const t = performance.now();
    const latencies = await run(clients, seconds * 1000);
    const elapsed = (performance.now() - t) / 1000;
    clearInterval(sampler);
    await engine.idle();
    const acts = completedActs.size;
    figures.push({
      clients,
      processes: latencies.length,
      acts,
      seconds: elapsed,
      procsPerSec: latencies.length / elapsed,
      actsPerSec: acts / elapsed,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      batches: counter.batches,
      rowsPerBatch: counter.rows / Math.max(1, counter.batches),
      batchMs: counter.busyMs / Math.max(1, counter.batches),
      writerBusy: counter.busyMs / 1000 / elapsed,
      writerQueueMax,
      duplicateActs,
    });
  }
  await engine.close();
  return figures;
}
