/**
 * The resident set (spec 4.6): the processes this engine holds in memory, at most `cache_cap`
 * unfinished ones. A process joins when it starts or is rebuilt from the store, and leaves when it
 * finishes (its rows stay) or when another instance took it over.
 *
 * State: `procs` by pid; `finishedHere`, the pids that finished in this engine (a slot fill never
 * loads them again: a query that raced the finishing batch could still see them `running`;
 * bounded, oldest dropped first); `admissionPending`, whether unfinished rows may be waiting for a
 * slot beyond the parked starts held here (while false, a finished process triggers no slot fill);
 * `parked`, starts parked while nothing else waited (their rows are in the store in state `none`
 * all the same), oldest first, at most PARKED_HELD: a freed slot starts the oldest at once,
 * without reading the store. A park beyond that bound, or while rows wait in the store, leaves the
 * process to the slot fills (`admissionPending`), so starts keep their order. `owed`: slots under
 * the cap freed while rows waited in the store, not yet taken by a fill — a fill admits that many
 * even if subflow children (which join beyond the cap) filled them meanwhile, as parked starts held
 * here would have started in them at once (a child ending above the cap frees none); a fill takes
 * them (`takeOwed`).
 */
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';
import type { EngineEvents } from './events.ts';

/** How many finished pids an engine remembers. */
const FINISHED_MEMORY = 100_000;

/** Most parked starts held in memory (each a process that has not run: its root task only). */
const PARKED_HELD = 10_000;

export class Residents {
  readonly procs = new Map<string, Process>();
  readonly finishedHere = new Set<string>();
  admissionPending = true;
  private owed = 0;
  /** Parked starts held here, oldest first: pid → what starts it. */
  private readonly parked = new Map<string, () => void>();

  constructor(
    /** Tasks whose timeout rules the tick checks: a process that leaves takes its tasks along. */
    private readonly timed: Set<Task>,
    /** Hears the processes that left because another instance took them over (`processesLost`). */
    private readonly onLost: (lost: EngineEvents['processesLost']) => void,
    /** A finished process left memory while rows wait in the store: fill the free slot. */
    private readonly onSlotFreed: () => void,
    /** Most unfinished processes in memory (`cache_cap`). */
    private readonly cap: number,
  ) {}

  /**
   * A start found no free slot: its rows are written in state `none`, and `start` runs when a
   * slot is free — from here, or (beyond PARKED_HELD, or while rows wait in the store) `start` is
   * dropped and a slot fill loads the process from its rows.
   */
  park(pid: string, start: () => void): void {
    if (!this.admissionPending && this.parked.size < PARKED_HELD) this.parked.set(pid, start);
    else this.admissionPending = true;
  }

  /** A parked start that was undone (its rows could not be written) is not started. */
  unpark(pid: string): void {
    this.parked.delete(pid);
  }

  /** Whether `pid` is a parked start held here (a slot fill must not load it from its rows too). */
  holdsParked(pid: string): boolean {
    return this.parked.has(pid);
  }

  /** Starts up to `free` parked starts held here, oldest first; how many it started. */
  startParked(free: number): number {
    let started = 0;
    for (const [pid, start] of this.parked) {
      if (started >= free) break;
      this.parked.delete(pid);
      start();
      started++;
    }
    return started;
  }

  /**
   * Unfinished processes held in memory: all of `procs` — a process leaves as it finishes (the
   * end of finishProcess evicts it), and only unfinished ones join.
   */
  activeCount(): number {
    return this.procs.size;
  }

  /** Slots freed for waiting rows since the last fill (reset): the least the next fill admits. */
  takeOwed(): number {
    const owed = this.owed;
    this.owed = 0;
    return owed;
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
    if (this.admissionPending) {
      // as many as a parked start held here would have had (owed ones counted as resident)
      this.owed = Math.max(this.owed, this.cap - this.activeCount());
      this.onSlotFreed();
    } else if (this.parked.size > 0) this.startParked(this.cap - this.activeCount());
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
