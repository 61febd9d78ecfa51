/**
 * Prometheus metrics (`/metrics`): processes by state, act latency, lane queue depth, store
 * writer depth and saturation, delivery backlog, timer loop health, stuck processes (current and
 * detected), socket connections; and the counters of the engine's events (event-metrics.ts:
 * processes started and finished, lanes turned full, writer saturations, degraded loops, leases
 * and processes lost, processes taken over). Store-backed figures are counted on scrape. One registry per server, so several servers in one process (tests)
 * do not collide.
 */
import client from 'prom-client';
import type { Server } from 'socket.io';
import type { Engine } from '../runtime/engine.ts';
import { taskInfo } from '../runtime/engine.ts';
import { eventCounters } from './event-metrics.ts';
import { isTerminal, LISTED_PROC_STATES } from '../../vocab/states.ts';

export interface Metrics {
  registry: client.Registry;
  stop(): void;
}

export function createMetrics(engine: Engine, io: () => Server | undefined): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'acts_node_' });
  const gauge = (name: string, help: string, labelNames: string[], collect: (g: client.Gauge) => void | Promise<void>) =>
    new client.Gauge({ name, help, labelNames, registers: [registry], async collect() { await collect(this); } });

  gauge('acts_processes', 'Processes in the store by state', ['state'], async (g) => {
    for (const state of LISTED_PROC_STATES) g.set({ state }, await engine.procs.count(state));
  });
  gauge('acts_resident_processes', 'Unfinished processes held in memory', [], (g) => g.set(engine.stats().processes));
  gauge('acts_lane_queue_depth', 'Jobs queued in the lanes', ['lane'], (g) => {
    const stats = engine.stats().lanes;
    g.set({ lane: 'all' }, stats.depth);
    stats.lanes.forEach((depth, i) => g.set({ lane: String(i) }, depth));
  });
  gauge('acts_store_writer_depth', 'Store writes waiting in the store writer', [], (g) => g.set(engine.stats().writerDepth));
  gauge('acts_store_writer_high_watermark', 'Largest store-writer depth seen', [], (g) => g.set(engine.stats().writerHighWater));
  gauge('acts_store_writer_saturated', 'Whether the store writer is saturated and new starts and actions are refused (1) or not (0)', [], (g) => g.set(engine.stats().writerSaturated ? 1 : 0));
  gauge('acts_delivery_backlog', 'Deliveries not yet acknowledged (created) or failed (error)', ['status'], async (g) => {
    const backlog = await engine.messages.backlog();
    for (const status of ['created', 'error'] as const) g.set({ status }, backlog[status]);
  });
  gauge('acts_timer_loop_degraded', 'Whether a timer loop is backing off after failures (1) or healthy (0)', ['loop'], (g) => {
    for (const loop of engine.health().loops) g.set({ loop: loop.name }, loop.degraded ? 1 : 0);
  });
  gauge('acts_timer_loop_consecutive_failures', 'Consecutive failed ticks of a timer loop', ['loop'], (g) => {
    for (const loop of engine.health().loops) g.set({ loop: loop.name }, loop.consecutiveFailures);
  });
  gauge('acts_timer_loop_last_success_seconds', 'Epoch seconds of the last clean tick of a timer loop', ['loop'], (g) => {
    for (const loop of engine.health().loops) g.set({ loop: loop.name }, loop.lastSuccess / 1000);
  });
  gauge('acts_stuck_processes', 'Processes of this instance that nothing can move (as of the last tick)', [], (g) => g.set(engine.stats().stuckProcesses));
  new client.Counter({
    name: 'acts_stuck_processes_detected_total',
    help: 'Processes this instance found stuck since it started (each counted once per time it got stuck)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(engine.stats().stuckDetected);
    },
  });
  gauge('acts_socket_connections', 'socket.io clients connected to this instance', [], (g) => g.set(io()?.of('/').sockets.size ?? 0));

  const latency = new client.Histogram({
    name: 'acts_act_duration_seconds',
    help: 'Time from an act starting to its end, by package',
    labelNames: ['uses'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 300, 3600, 86400],
    registers: [registry],
  });
  const off = engine.on('task', ({ task }) => {
    if (task.kind !== 'act' || !isTerminal(task.state) || task.startTime === 0) return;
    latency.observe({ uses: taskInfo(task).uses }, Math.max(0, task.endTime - task.startTime) / 1000);
  });
  const offCounters = eventCounters(engine, registry);
  return {
    registry,
    stop: () => {
      off();
      offCounters();
    },
  };
}
