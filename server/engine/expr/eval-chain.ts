/**
 * The chain of re-runs of one job whose windows wait for code workers (expr/trials.ts). A job may
 * hold several windows — a task's `if`, then the outputs of what that closes — and each re-run
 * goes through all of them again, in the same order, over the same state (the process's lane is
 * held meanwhile). So the workers' answers stay on their tasks for the whole chain: a window that
 * completed must not drop its answers while a later one still waits, or each re-run would ask for
 * them again, without end. The answers go when a re-run completes without waiting again (or the
 * process or task left meanwhile).
 *
 * State (per process, while a chain runs): the tasks whose windows ran in it; whether the current
 * re-run waits again.
 */
import type { Task } from '../task.ts';

export class EvalChain {
  private readonly tasks = new Set<Task>();
  private waitsAgain = false;

  /** A window of `task` runs in this chain (its answers and counts are the chain's). */
  joins(task: Task): void {
    this.tasks.add(task);
  }

  /** A window of the current re-run waits for a worker. */
  waits(): void {
    this.waitsAgain = true;
  }

  /** Runs one re-run with the windows' counts from the start; true when it ended the chain. */
  rerun(retry: () => void): boolean {
    for (const task of this.tasks) task.evalCounts = undefined;
    this.waitsAgain = false;
    try {
      retry();
    } finally {
      if (!this.waitsAgain) this.end();
    }
    return !this.waitsAgain;
  }

  /** Drops every answer the chain kept. */
  end(): void {
    for (const task of this.tasks) {
      task.evalMemo = undefined;
      task.evalCounts = undefined;
    }
    this.tasks.clear();
  }
}
