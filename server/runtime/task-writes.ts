/**
 * The rows a task change dirties: a new task joins its process and its writes are routed to the
 * current job's batch; a state change (engine/task-lifecycle.ts) also tells the outbox (an open
 * `exec` record closes when its task leaves the engine's hands) and the inbox (a task that stops
 * waiting for a client leaves it). Holds no state beyond the batch and outbox it writes to.
 */
import { dropIncidentsUnder } from '../engine/control.ts';
import type { TaskStops } from './task-stops.ts';
import type { Clock, IdSource } from '../engine/clock.ts';
import type { ErrorInfo } from '../engine/errors.ts';
import type { Process } from '../engine/process.ts';
import type { Task } from '../engine/task.ts';
import { enterState, newTask } from '../engine/task-lifecycle.ts';
import type { Node } from '../engine/tree/node.ts';
import type { TaskState } from '../../vocab/states.ts';
import type { EngineEvents, TypedEmitter } from './events.ts';
import type { JobBatch } from './job-batch.ts';
import type { Outbox } from './outbox.ts';

export class TaskWrites {
  constructor(
    private readonly batch: JobBatch,
    private readonly outbox: Outbox,
    private readonly events: TypedEmitter<EngineEvents>,
    private readonly clock: Clock,
    private readonly newId: IdSource,
    private readonly stepBudget: number,
    /** Work of acts to stop when they close (a shell script). */
    private readonly stops: TaskStops,
  ) {}

  createTask(proc: Process, node: Node, prev: Task | null, parent: Task | null, isHook = false): Task {
    const task = newTask(proc, node, prev, parent, isHook, this.newId, this.stepBudget);
    task.createdInBatch = this.batch.seq;
    this.adopt(proc, task);
    this.markDirty(proc, task);
    return task;
  }

  /** Adds a new task to its process and routes its data writes to the store. */
  adopt(proc: Process, task: Task): void {
    this.wire(proc, task);
    proc.add(task);
  }

  /** Routes the data writes of a process rebuilt from the store to the store again. */
  wireRestored(proc: Process): void {
    for (const task of proc.tasks.values()) this.wire(proc, task);
  }

  setState(proc: Process, task: Task, state: TaskState): void {
    if (task.state === 'interrupted' && state !== 'interrupted') this.batch.leftInbox(task);
    enterState(proc, task, state, this.clock.now());
    if (task.terminal) this.stops.closed(task);
    // an incident under a task that closed (an escalation, a jump, an action) is no longer open
    if (task.terminal && dropIncidentsUnder(proc, task)) {
      this.markProcDirty(proc);
      this.events.emit('control', { proc });
    }
    this.outbox.taskState(task, state);
    this.markDirty(proc, task);
  }

  setError(proc: Process, task: Task, err: ErrorInfo): void {
    this.setState(proc, task, 'error');
    task.err = err;
  }

  /** The task's state changed: its row goes out with the job, and the runtime's `task` event fires. */
  taskChanged(proc: Process, task: Task): void {
    this.markDirty(proc, task);
    this.events.emit('task', { proc, task });
  }

  markDirty(proc: Process, task: Task): void {
    this.batch.markDirty(proc, task);
  }

  markProcDirty(proc: Process): void {
    this.batch.markProcDirty(proc);
  }

  private wire(proc: Process, task: Task): void {
    task.touch = () => this.markDirty(proc, task);
  }
}
