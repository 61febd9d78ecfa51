/**
 * The /metrics counters fed by the engine's typed event map (runtime/events.ts): one increment per
 * event, so each counts transitions and lifecycle facts, never jobs. Stateless beyond prom-client's
 * counters; `stop` unsubscribes.
 */
import client from 'prom-client';
import type { Engine } from '../runtime/engine.ts';
import type { EngineEvents } from '../runtime/events.ts';

interface Counted<K extends keyof EngineEvents> {
  event: K;
  name: string;
  help: string;
  /** The counter's one label, and its value for an event. */
  label?: [name: string, of: (payload: EngineEvents[K]) => string];
  /** How much one event adds (default 1). */
  by?: (payload: EngineEvents[K]) => number;
}

/** Subscribes one counter; returns the unsubscribe. */
function counted<K extends keyof EngineEvents>(c: Counted<K>): (engine: Engine, registry: client.Registry) => () => void {
  return (engine, registry) => {
    const counter = new client.Counter({ name: c.name, help: c.help, labelNames: c.label ? [c.label[0]] : [], registers: [registry] });
    return engine.on(c.event, (payload) => {
      const by = c.by ? c.by(payload) : 1;
      if (by <= 0) return;
      if (c.label) counter.inc({ [c.label[0]]: c.label[1](payload) }, by);
      else counter.inc(by);
    });
  };
}

const COUNTERS = [
  counted({ event: 'started', name: 'acts_processes_started_total', help: 'Processes that started running on this instance' }),
  counted({ event: 'finished', name: 'acts_processes_finished_total', help: 'Processes that reached a terminal state on this instance, by state', label: ['state', ({ proc }) => proc.state] }),
  counted({ event: 'laneFull', name: 'acts_lane_full_total', help: 'Times a lane turned full and refused work (its executions overflowed to the outbox), by lane', label: ['lane', (e) => String(e.lane)] }),
  counted({ event: 'writerSaturation', name: 'acts_store_writer_saturations_total', help: 'Times the store writer became saturated (new starts and client actions refused)', by: (e) => (e.saturated ? 1 : 0) }),
  counted({ event: 'loopDegraded', name: 'acts_timer_loop_degradations_total', help: 'Times a timer loop degraded after failed ticks in a row, by loop', label: ['loop', (e) => e.loop] }),
  counted({ event: 'leaseLost', name: 'acts_lease_lost_total', help: 'Times this instance found its own lease lapsed (others may have taken its processes over)' }),
  counted({ event: 'processesLost', name: 'acts_processes_lost_total', help: 'Processes another instance took over that left this instance, by how it found out', label: ['found_by', (e) => e.foundBy], by: (e) => e.pids.length }),
  counted({ event: 'processesClaimed', name: 'acts_processes_claimed_total', help: 'Unfinished processes this instance took over (no live instance ran them)', by: (e) => e.pids.length }),
];

/** Registers the event counters on `registry`; returns the unsubscribe. */
export function eventCounters(engine: Engine, registry: client.Registry): () => void {
  const offs = COUNTERS.map((subscribe) => subscribe(engine, registry));
  return () => {
    for (const off of offs) off();
  };
}
