/**
 * Lifecycle hooks (spec 2.8): setup acts with `on:` run beside their owner when it reaches the
 * matching point. Hook tasks never fire hooks themselves and never decide their owner's fate.
 */
import type { EngineContext } from './context.ts';
import type { HookEvent } from './model/types.ts';
import type { Process } from './process.ts';
import { isCreatedLike, isNonErrorTerminal } from '../../vocab/states.ts';
import type { Task } from './task.ts';

function fire(core: EngineContext, proc: Process, owner: Task | null | undefined, event: HookEvent): void {
  if (!owner) return;
  for (const rule of owner.node.hooks) {
    if (rule.event !== event) continue;
    const hook = core.createTask(proc, rule.act, owner, owner, true);
    core.schedule(proc, hook);
  }
}

function nearestStep(task: Task): Task | null {
  for (let t = task.parent; t; t = t.parent) if (t.kind === 'step') return t;
  return null;
}

/** Fires the hooks a task event triggers, on the task itself, its step and the root. */
export function fireLifecycleHooks(core: EngineContext, proc: Process, task: Task): void {
  if (task.isHook) return;
  const root = proc.root;
  if (isCreatedLike(task.state) && !task.createdHookFired) {
    task.createdHookFired = true;
    fire(core, proc, task, 'created');
    if (task.kind === 'act') {
      fire(core, proc, nearestStep(task), 'before_update');
      fire(core, proc, root, 'before_update');
    }
  } else if (isNonErrorTerminal(task.state)) {
    fire(core, proc, task, 'completed');
    if (task.kind === 'act') {
      fire(core, proc, nearestStep(task), 'updated');
      fire(core, proc, root, 'updated');
    } else if (task.kind === 'step') {
      fire(core, proc, task, 'step');
      fire(core, proc, root, 'step');
    }
  }
}
