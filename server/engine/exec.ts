/**
 * One job on a task (spec 2.3): init → run → proceed, as far as the task's state allows. The
 * runtime calls `exec` for every queued execution; the task's driver is how the job goes on after
 * work off the engine's thread (an expression window redone, a code act's result applied).
 */
import type { EngineContext } from './context.ts';
import { initTask, runAct, runTask, type TaskDriver } from './kinds.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { proceed, propagate, taskJob } from './flow.ts';
import { holdsBack } from './control.ts';

/** One job: init → run → proceed, as far as the task's state allows. */
export function exec(core: EngineContext, proc: Process, task: Task): void {
  if (proc.abandoned) return;
  if (task.terminal) {
    core.log.warn(`task ${proc.pid}:${task.tid} is already ${task.state}; not executed again`);
    return;
  }
  // a paused process starts no task (control.ts)
  if ((task.state === 'none' || task.state === 'ready') && holdsBack(core, proc, task)) return;
  const driver = new JobDriver(core, proc, task);
  taskJob(core, proc, task, () => {
    if (task.state === 'none') initTask(core, proc, task, driver);
    if (task.state === 'ready') runTask(core, proc, task, driver);
    if (task.state === 'running') proceed(core, proc, task);
    else if (task.terminal && task.state !== 'error') propagate(core, proc, task);
  });
}

/**
 * A code act that a crash cut off while its code was on a worker (`running`, waiting for the
 * answer): its package runs again, so the code goes to a worker again, and the act completes once
 * it answers. What the act started beside its code (its setup chain) stays as it is.
 */
export function rerunCode(core: EngineContext, proc: Process, task: Task): void {
  if (proc.abandoned || task.terminal) return;
  const driver = new JobDriver(core, proc, task);
  taskJob(core, proc, task, () => {
    runAct(core, proc, task, driver);
    proceed(core, proc, task);
  });
}

/** How a task's job goes on after work off the engine's thread (a class: one is made per job). */
class JobDriver implements TaskDriver {
  constructor(
    private readonly core: EngineContext,
    private readonly proc: Process,
    private readonly task: Task,
  ) {}

  again(): void {
    exec(this.core, this.proc, this.task);
  }

  resume(work: () => void): void {
    const { core, proc, task } = this;
    taskJob(core, proc, task, () => {
      work();
      proceed(core, proc, task);
    });
  }
}
