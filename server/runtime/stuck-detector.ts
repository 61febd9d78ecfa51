/**
 * The stuck-process detector (issue 9): on every tick the runtime asks which resident processes
 * nothing can move (stuck-check.ts, the liveness invariant of liveness.ts); this module keeps the
 * books, so each finding is reported once and an operator sees it in the runs list.
 *
 * States, per process: moving → stuck → moving → …
 * - moving → stuck: a check finds it stuck. Reported once: the `stuck` event (with its model and
 *   task table; event-log.ts makes it one error line), `detected` + 1. Marked durably: a job of its own sets
 *   `Process.stuckSince`, written with that job's batch (procs.stuck_since). A process restored
 *   with a mark keeps its `since` (a new engine reports it once more).
 * - stuck → moving: a later check no longer finds it stuck (an action or a relay moved it; the
 *   mark is cleared by a job), it finished (the mark is cleared in its finishing batch), or it
 *   left this engine's memory (taken over; its rows are no longer ours to write): the `unstuck`
 *   event. It may be reported again if it gets stuck once more.
 * One check runs at a time; a tick that comes while one runs waits for its figure.
 */
import type { Runtime } from './runtime-types.ts';
import { errorMessage } from '../engine/errors.ts';
import type { EngineEvents } from './events.ts';
import type { StuckProcess } from './liveness.ts';
import type { Process } from '../engine/process.ts';
import { findStuck } from './stuck-check.ts';

interface Reported {
  mid: string;
  since: number;
}

/** The processes reported stuck now: how many, and the first `HEALTH_PIDS` pids. */
export interface StuckHealth {
  count: number;
  pids: string[];
}

/** Most pids the health figures list (the count is complete). */
const HEALTH_PIDS = 100;

export class StuckDetector {
  private readonly reported = new Map<string, Reported>();
  private checking: Promise<number> | null = null;
  /** Processes reported stuck since this engine started. */
  detected = 0;

  constructor(private readonly rt: Runtime) {
    rt.events.on('finished', ({ proc }) => this.finished(proc));
  }

  /** Checks the resident processes; resolves with how many are stuck now (a failed check is logged). */
  check(): Promise<number> {
    this.checking ??= this.run()
      .catch((err) => {
        this.rt.log.error(`the stuck-process check failed: ${errorMessage(err)}`);
        return this.reported.size;
      })
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  current(): StuckHealth {
    return { count: this.reported.size, pids: [...this.reported.keys()].slice(0, HEALTH_PIDS) };
  }

  private async run(): Promise<number> {
    const stuck = await findStuck(this.rt);
    const found = new Set(stuck.map((s) => s.pid));
    for (const report of stuck) if (!this.reported.has(report.pid)) this.report(report);
    for (const [pid, entry] of this.reported) {
      if (!found.has(pid)) this.clear(pid, entry, this.rt.procs.has(pid) ? 'moved' : 'gone');
    }
    // marks of processes that move (also marks restored from the store)
    for (const proc of this.rt.procs.values()) {
      if (proc.stuckSince > 0 && !proc.finished && !found.has(proc.pid)) this.mark(proc, 0);
    }
    return this.reported.size;
  }

  private report(stuck: StuckProcess): void {
    const proc = this.rt.procs.get(stuck.pid);
    if (!proc) return;
    const since = proc.stuckSince > 0 ? proc.stuckSince : this.rt.clock.now();
    this.reported.set(stuck.pid, { mid: stuck.mid, since });
    this.detected++;
    this.rt.events.emit('stuck', { pid: stuck.pid, mid: stuck.mid, since, tasks: stuck.tasks });
    if (proc.stuckSince !== since) this.mark(proc, since);
  }

  /** Sets (or with 0 clears) the mark in a job of the process: written with its batch. */
  private mark(proc: Process, since: number): void {
    this.rt.jobs.job(proc.pid, since > 0 ? 'stuck: mark' : 'stuck: clear', () => {
      if (this.rt.procs.get(proc.pid) !== proc || proc.finished) return;
      proc.stuckSince = since;
      this.rt.tasks.markProcDirty(proc);
    });
  }

  /** In the finishing job: the mark goes with the process's last batch. */
  private finished(proc: Process): void {
    if (proc.stuckSince > 0) {
      proc.stuckSince = 0;
      this.rt.tasks.markProcDirty(proc);
    }
    const entry = this.reported.get(proc.pid);
    if (entry) this.clear(proc.pid, entry, 'finished');
  }

  private clear(pid: string, entry: Reported, reason: EngineEvents['unstuck']['reason']): void {
    this.reported.delete(pid);
    this.rt.events.emit('unstuck', { pid, mid: entry.mid, since: entry.since, reason });
  }
}
