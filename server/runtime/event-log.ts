/**
 * The one place where the runtime's facts (the typed event map, events.ts) become log lines: the
 * engine subscribes its logger (`EngineOptions.logger`; the server's pino log in `server/main.ts`,
 * the console in `acts serve`) once at creation, and the runtime's modules emit events instead of
 * logging them. Errors (a failed write, tick or job) are still logged where they are caught.
 * Stateless.
 */
import type { Logger } from '../engine/logger.ts';
import type { EngineEvents, TypedEmitter } from './events.ts';

/** Most pids one line names (the count is complete). */
const PIDS_NAMED = 20;

type Level = 'info' | 'warn' | 'error';
/** The line of an event; null: none (the fact is told by another line). */
type Lines = { [K in keyof EngineEvents]?: (payload: EngineEvents[K]) => [Level, string] | null };

function pidList(pids: string[]): string {
  const more = pids.length - PIDS_NAMED;
  return pids.slice(0, PIDS_NAMED).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const UNSTUCK_BECAUSE = { moved: 'it moved again', finished: 'it finished', gone: 'it left this engine' } as const;

export const EVENT_LINES: Lines = {
  laneFull: (e) => ['warn', `lane ${e.lane} is full (${e.size} of ${e.capacity} jobs): executions overflow to the outbox and go back as it drains (the first refused is of process ${e.pid})`],
  laneDrained: (e) => ['info', `lane ${e.lane} drained to ${e.size} of ${e.capacity} jobs`],
  writerSaturation: (e) =>
    e.saturated
      ? ['warn', `the store writer is saturated (${e.depth} writes waiting, cap ${e.cap}): new starts and client actions are refused with engine.busy until it drained to ${Math.floor(e.cap / 2)}`]
      : ['info', `the store writer drained to ${e.depth} writes (cap ${e.cap}): starts and client actions are accepted again`],
  loopDegraded: (e) => ['warn', `the ${e.loop} timer loop is degraded after ${plural(e.failures, 'failed tick')} in a row (${e.error}): it skips ticks before each attempt until one is clean`],
  loopRecovered: (e) => ['info', `the ${e.loop} timer loop recovered after ${plural(e.failures, 'failed tick')} in a row`],
  leaseLost: (e) => ['warn', `the lease of engine instance ${e.instance} had lapsed; checking which processes it still owns`],
  processesLost: (e) => [
    'warn',
    `${plural(e.pids.length, 'process', 'processes')} taken over by another engine instance (${e.foundBy === 'fence' ? 'found by the write fence' : 'after this instance’s lease lapsed'}) left this instance: ${pidList(e.pids)}`,
  ],
  // at boot the recovery's own line counts them
  processesClaimed: (e) => (e.boot ? null : ['info', `took over ${plural(e.pids.length, 'unfinished process', 'unfinished processes')} that no live instance ran: ${pidList(e.pids)}`]),
  stuck: (e) => [
    'error',
    `process ${e.pid} (model ${e.mid}) is stuck: nothing can move it (no open interrupt, armed timeout, queued job, running subflow child or open outbox record); abort it. Tasks: ${e.tasks.join('; ')}`,
  ],
  unstuck: (e) => ['info', `process ${e.pid} (model ${e.mid}) is no longer stuck: ${UNSTUCK_BECAUSE[e.reason]}`],
};

/** Writes a line for each fact event; returns the unsubscribe. */
export function logEvents(events: TypedEmitter<EngineEvents>, log: Logger): () => void {
  const offs = (Object.keys(EVENT_LINES) as Array<keyof EngineEvents>).map((name) =>
    events.on(name, (payload) => {
      const line = (EVENT_LINES[name] as (p: typeof payload) => [Level, string] | null)(payload);
      if (line) log[line[0]](line[1]);
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}
