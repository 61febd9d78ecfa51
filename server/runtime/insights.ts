/**
 * Insights on the graph (`engine.insights`): the figures of a model's nodes over a time range (the
 * heatmap of a model's page: the store's `modelNodeStats`), and where one run's work waits in the
 * runtime now — jobs queued in its lane (and whether that lane is full, refusing work), executions
 * held in the overflow outbox, deliveries not acknowledged —, each put on the task (and so the
 * node) it belongs to, so backpressure shows where it happens.
 *
 * The lane facts are this instance's: a process another instance runs reports none here
 * (`resident: false`); the outbox records and deliveries come from the store, so they show from
 * any instance. Holds no state.
 */
import { and, eq, is, oneOf } from '../store/contract/filters.ts';
import type { NodeStatRow } from '../store/contract/types.ts';
import type { LaneWait } from './lanes.ts';
import type { ProcessReader } from './process-reader.ts';
import type { Runtime } from './runtime-types.ts';

/** Where one task of a run waits in the runtime now. */
export interface TaskBackpressure {
  tid: string;
  /** The engine node id of the task (its node on the graph). */
  nid: string;
  /** Names of its jobs queued in the process's lane, next first. */
  queued: string[];
  /** Its execution was refused by a full lane and waits in the overflow outbox. */
  overflow: boolean;
  /** Its deliveries sent and not acknowledged yet (`created`). */
  unacked: number;
  /** Its deliveries that failed and wait for a redo (`error`). */
  failed: number;
}

/** Where a run's work waits now (runRuntime). */
export interface RunBackpressure {
  pid: string;
  /** The process runs on this instance (the lane facts are known). */
  resident: boolean;
  /** Its lane on this instance; null when it does not run here. */
  lane: Omit<LaneWait, 'jobs'> | null;
  /** The tasks with anything waiting, in `tid` order. */
  tasks: TaskBackpressure[];
}

/** Most outbox records and deliveries of one run read (a run waits on far fewer). */
const LIMIT = 1000;

/** Outbox statuses of an execution not handed to a lane yet. */
const WAITING_OPS = ['pending', 'overflow'];

export class Insights {
  constructor(
    private readonly rt: Runtime,
    private readonly reader: ProcessReader,
  ) {}

  /** The figures of model `mid`'s nodes: at each now, and passed in [from, to] (epoch ms). */
  async nodeStats(mid: string, from: number, to: number): Promise<NodeStatRow[]> {
    await this.rt.writer.flush();
    return this.rt.store.queries.modelNodeStats(mid, from, to);
  }

  /** Where the work of run `pid` waits now; `process.not_found` when there is no such run. */
  async runBackpressure(pid: string): Promise<RunBackpressure> {
    await this.rt.writer.flush();
    const proc = await this.reader.loaded(pid);
    const resident = this.rt.procs.get(pid) === proc;
    const tasks = new Map<string, TaskBackpressure>();
    const taskOf = (tid: string): TaskBackpressure | undefined => {
      const task = proc.tasks.get(tid);
      if (!task) return undefined;
      let entry = tasks.get(tid);
      if (!entry) tasks.set(tid, (entry = { tid, nid: task.node.id, queued: [], overflow: false, unacked: 0, failed: 0 }));
      return entry;
    };
    let lane: RunBackpressure['lane'] = null;
    if (resident) {
      const { jobs, ...fill } = this.rt.jobs.queue.waitingOf(pid);
      lane = fill;
      // a job's name ends with the tid it works on (`exec <tid>`, `action submit <tid>`); one without goes to the process's task
      for (const name of jobs) (taskOf(name.slice(name.lastIndexOf(' ') + 1)) ?? taskOf('$'))?.queued.push(name);
      for (const [, refused] of this.rt.outbox.refused) if (refused.proc.pid === pid) taskOf(refused.task.tid)!.overflow = true;
    } else {
      // not run here: executions refused by a full lane are the open exec records of the store
      const ops = await this.rt.store.ops.query({ filter: and(eq('pid', pid), eq('type', 'exec'), oneOf('status', WAITING_OPS)), limit: LIMIT });
      for (const op of ops.rows) {
        const entry = taskOf(op.tid);
        if (entry) entry.overflow = true;
      }
    }
    const deliveries = await this.rt.store.deliveries.query({ filter: and(eq('pid', pid), is('status', 'ne', 'acked'), is('status', 'ne', 'completed')), limit: LIMIT });
    for (const delivery of deliveries.rows) {
      const entry = taskOf(delivery.tid);
      if (!entry) continue;
      if (delivery.status === 'created') entry.unacked++;
      else if (delivery.status === 'error') entry.failed++;
    }
    return { pid, resident, lane, tasks: [...tasks.values()].filter(waits).sort((a, b) => (a.tid < b.tid ? -1 : a.tid > b.tid ? 1 : 0)) };
  }
}

const waits = (task: TaskBackpressure): boolean => task.queued.length > 0 || task.overflow || task.unacked > 0 || task.failed > 0;
