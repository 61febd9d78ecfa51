/**
 * Wires the runtime of one engine (runtime-types.ts): the parts that run the workflow semantics
 * (server/engine) — resident processes, lanes and jobs, the store writer with its per-job batch,
 * the outbox, executions and their overflow, task writes, expressions, messages and channels, the
 * event map — and `port`, the engine's port (engine/context.ts) those parts implement together
 * (engine-port.ts). The parts hold the state and the behaviour; the value only holds the parts.
 */
import { TaskStops } from './task-stops.ts';
import { OrderedDispatcher, type Channel } from './channels.ts';
import { errorMessage } from '../engine/errors.ts';
import { exec } from '../engine/exec.ts';
import { Snapshots } from '../engine/snapshots.ts';
import type { Task } from '../engine/task.ts';
import { enginePort } from './engine-port.ts';
import { TypedEmitter, type EngineEvents } from './events.ts';
import { Executions } from './executions.ts';
import { Expressions } from './expressions.ts';
import { JobBatch } from './job-batch.ts';
import { Jobs } from './jobs.ts';
import { Outbox } from './outbox.ts';
import { Publisher } from './publisher.ts';
import { multiInstance } from './relay-records.ts';
import { Residents } from './residents.ts';
import { StoreWriter } from './store-writer.ts';
import { TaskWrites } from './task-writes.ts';
import { PASS_JOBS, PASS_JOBS_WRITES_ELSEWHERE } from './lanes.ts';
import type { Runtime, RuntimeDeps } from './runtime-types.ts';

export function createRuntime(deps: RuntimeDeps): Runtime {
  const { store, config, log, clock, newId } = deps;
  const fault = deps.faults ?? (() => {});
  const events = new TypedEmitter<EngineEvents>();
  const timed = new Set<Task>();
  const residents = new Residents(timed, (lost) => events.emit('processesLost', lost), () => deps.links.slotFreed(), config.cacheCap);
  const fence = multiInstance(store) ? { owner: config.instanceId, onLost: (pids: string[]) => residents.release(pids, 'fence') } : undefined;
  const writer = new StoreWriter(store, (err) => log.error(`store write failed: ${errorMessage(err)}`), fence, store.pipelinedWrites ?? 1);
  const outbox = new Outbox(() => clock.now(), newId);
  // overflowed executions go back into their lanes after every commit and every drain pass
  const drainOverflow = (): void => parts.executions.drainOverflow();
  const batch = new JobBatch(writer, outbox, config.instanceId, (done) => events.emit('committed', done), drainOverflow, (uses) => deps.registry.isExternal(uses));
  const passJobs = config.passJobs ?? (writer.pipelined ? PASS_JOBS_WRITES_ELSEWHERE : PASS_JOBS);
  const jobs = new Jobs({ ...config, passJobs }, batch, events, log, drainOverflow);
  const stops = new TaskStops();
  const channels = new Map<string, Channel>();
  const dispatcher = new OrderedDispatcher((err) => log.error(`channel handler failed: ${errorMessage(err)}`));
  const parts = {
    ...deps,
    fault,
    events,
    residents,
    procs: residents.procs,
    timed,
    startingChildren: new Set<Task>(),
    snapshots: new Snapshots(),
    channels,
    dispatcher,
    writer,
    batch,
    outbox,
    jobs,
    stops,
    tasks: new TaskWrites(batch, outbox, events, clock, newId, config.stepBudget, stops),
    expressions: new Expressions(deps.sandbox, config.trialSliceMs, config.valueCapBytes, (proc) => batch.markProcDirty(proc), log),
    publisher: new Publisher({ channels, dispatcher, batch, events, store, writer, newId, now: () => clock.now() }),
    executions: new Executions(jobs, batch, outbox, residents.procs, (proc, task) => exec(port, proc, task), fault),
  };
  const port = enginePort(parts);
  return { ...parts, port };
}
