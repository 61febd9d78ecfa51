/**
 * Work to stop when a task closes: work an act started off the lane (a shell script) registers
 * how to stop it; when the task turns terminal before that work settled — its step cancelled, its
 * process aborted — the stop runs, once (TaskWrites.setState tells).
 *
 * State: per task, the stops registered and not yet run or forgotten.
 */
import type { Task } from '../engine/task.ts';

export class TaskStops {
  private readonly stops = new Map<Task, Set<() => void>>();

  /** Registers `stop` for when `task` closes; the returned function forgets it (the work settled). */
  add(task: Task, stop: () => void): () => void {
    let set = this.stops.get(task);
    if (!set) this.stops.set(task, (set = new Set()));
    set.add(stop);
    return () => {
      set.delete(stop);
      if (set.size === 0 && this.stops.get(task) === set) this.stops.delete(task);
    };
  }

  /** The task turned terminal: its registered stops run. */
  closed(task: Task): void {
    if (this.stops.size === 0) return;
    const set = this.stops.get(task);
    if (!set) return;
    this.stops.delete(task);
    for (const stop of set) stop();
  }
}
