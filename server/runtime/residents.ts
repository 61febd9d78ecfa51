/**
 * The resident set (spec 4.6): the processes this engine holds in memory, at most `cache_cap`
 * unfinished ones. A process joins when it starts or is rebuilt from the store, and leaves when it
 * finishes (its rows stay) or when another instance took it over.
 *
 * State: `procs` by pid; `finishedHere`, the pids that finished in this engine (a slot fill never
 * loads them again: a query that raced the finishing batch could still see them `running`;
 * bounded, oldest dropped first); `admissionPending`, whether unfinished rows may be waiting for a
 * slot (while false, a finished process triggers no slot fill).
 */
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';
import type { EngineEvents } from './events.ts';

/** How many finished pids an engine remembers. */
const FINISHED_MEMORY = 100_000;

export class Residents {
  readonly procs = new Map<string, Process>();
  readonly finishedHere = new Set<string>();
  admissionPending = true;

  constructor(
    /** Tasks whose timeout rules the tick checks: a process that leaves takes its tasks along. */
    private readonly timed: Set<Task>,
    /** Hears the processes that left because another instance took them over (`processesLost`). */
    private readonly onLost: (lost: EngineEvents['processesLost']) => void,
    /** A finished process left memory while admission waits: fill the free slot. */
    private readonly onSlotFreed: () => void,
  ) {}

  /** Unfinished processes held in memory. */
  activeCount(): number {
    let n = 0;
    for (const proc of this.procs.values()) if (!proc.finished) n++;
    return n;
  }

  /** A process rebuilt from the store joins. */
  adopt(proc: Process): void {
    this.procs.set(proc.pid, proc);
  }

  /** A finished process leaves; its rows stay in the store. */
  evict(proc: Process): void {
    if (this.procs.get(proc.pid) === proc) this.procs.delete(proc.pid);
    this.finishedHere.add(proc.pid);
    if (this.finishedHere.size > FINISHED_MEMORY) {
      const oldest = this.finishedHere.values().next().value;
      if (oldest !== undefined) this.finishedHere.delete(oldest);
    }
    if (this.admissionPending) this.onSlotFreed();
  }

  /**
   * Processes another instance took over (found by the write fence, or after this instance's
   * lease lapsed) leave without a trace here; their new owner continues them. Reported in one
   * `processesLost` event (also a process that already left memory, e.g. finished here by a job
   * whose writes the fence dropped).
   */
  release(pids: readonly string[], foundBy: EngineEvents['processesLost']['foundBy']): void {
    if (pids.length === 0) return;
    for (const pid of pids) {
      const proc = this.procs.get(pid);
      if (!proc) continue;
      this.procs.delete(pid);
      for (const task of proc.tasks.values()) this.timed.delete(task);
    }
    this.onLost({ pids: [...pids], foundBy });
  }
}
