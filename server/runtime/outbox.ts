/**
 * The outbox (spec 5.2–5.4): durable records of work that must be done even if the engine dies
 * before doing it — `exec` (an execution a full lane refused, or hook work a finished process
 * still owes), `action` (a client action, action-intake.ts), `relay` (work for the instance that
 * owns a process, relay.ts).
 *
 * A record's life: pending → (dispatched: handed to a lane) → done. It is written with the batch
 * of the job that decided the work and closed with the batch of the job that did it, so after a
 * crash the store holds exactly the work not done: the boot and the tick hand it out again
 * (recover.ts, end-hooks.ts, timers.ts). An `exec` record closes when its job starts — except for
 * hook work of a finished process, which no restart would otherwise reload: that record stays
 * open until its task leaves the engine's hands (done, or waiting for a client).
 *
 * State here: the record writes that go out with the next batch (`take`); the `exec` record each
 * queued task holds (`held`, until it closes); and the executions a full lane refused, oldest
 * first, until they are handed back (`refused`, with the batch that records each: it may go back
 * once that batch committed). While a process has executions there, a new execution of it is
 * refused too (executions.ts), so its executions keep their order through an overflow.
 */
import type { IdSource } from '../engine/clock.ts';
import type { Process } from '../engine/process.ts';
import type { OpRow } from '../store/contract/types.ts';
import type { Task } from '../engine/task.ts';
import { isEngineWork, type TaskState } from '../../vocab/states.ts';
import { ROW_ID_LENGTH } from '../engine/model/ids.ts';

export interface RefusedExecution {
  proc: Process;
  task: Task;
  op: OpRow;
  /** The job batch that writes the record. */
  batch: number;
}

/** The executions full lanes refused, oldest first, and which processes have some waiting. */
export class RefusedExecutions {
  private readonly byId = new Map<string, RefusedExecution>();
  /** How many refused executions each process has waiting. */
  private readonly perPid = new Map<string, number>();

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  set(id: string, refused: RefusedExecution): void {
    if (!this.byId.has(id)) this.perPid.set(refused.proc.pid, (this.perPid.get(refused.proc.pid) ?? 0) + 1);
    this.byId.set(id, refused);
  }

  delete(id: string): boolean {
    const refused = this.byId.get(id);
    if (!refused) return false;
    this.byId.delete(id);
    const left = (this.perPid.get(refused.proc.pid) ?? 1) - 1;
    if (left > 0) this.perPid.set(refused.proc.pid, left);
    else this.perPid.delete(refused.proc.pid);
    return true;
  }

  /** Whether `pid` has executions waiting here (a new one of it must wait behind them). */
  waitsFor(pid: string): boolean {
    return this.perPid.has(pid);
  }

  [Symbol.iterator](): IterableIterator<[string, RefusedExecution]> {
    return this.byId[Symbol.iterator]();
  }
}

export class Outbox {
  private writes: OpRow[] = [];
  /** The open `exec` record of a queued task (a task the engine dropped takes its record along). */
  private readonly held = new WeakMap<Task, OpRow>();
  readonly refused = new RefusedExecutions();

  constructor(
    private readonly now: () => number,
    private readonly newId: IdSource,
  ) {}

  /** An `exec` record for a task whose execution is queued, written with the current batch. */
  recordExec(proc: Process, task: Task): OpRow {
    const now = this.now();
    const record: OpRow = { id: this.newId(ROW_ID_LENGTH), type: 'exec', pid: proc.pid, tid: task.tid, event: null, options: null, status: 'pending', create_time: now, update_time: now };
    this.writes.push(record);
    this.held.set(task, record);
    return record;
  }

  /** Whether the task holds an open `exec` record. */
  holds(task: Task): boolean {
    return this.held.has(task);
  }

  /** A record (new, or with a new status) goes out with the next batch. */
  write(op: OpRow): void {
    this.writes.push(op);
  }

  /** The record's work is done: it closes with the batch of the job that did it. */
  close(op: OpRow): void {
    this.writes.push({ ...op, status: 'done', update_time: this.now() });
  }

  /** The record's work is handed to a lane. */
  dispatch(op: OpRow): OpRow {
    const dispatched: OpRow = { ...op, status: 'dispatched', update_time: this.now() };
    this.writes.push(dispatched);
    return dispatched;
  }

  /**
   * A queued execution starts (`op`: the record it was handed back with): the record closes,
   * unless it is hook work of a finished process (then the task's state change closes it).
   */
  executionStarts(proc: Process, task: Task, op: OpRow | undefined): void {
    const record = op ?? this.held.get(task);
    this.held.delete(task);
    if (!record) return;
    if (proc.finished && task.inHook) this.held.set(task, record);
    else this.close(record);
  }

  /** A task's state changed: an execution record it still holds closes once it left the engine's hands. */
  taskState(task: Task, state: TaskState): void {
    const record = this.held.get(task);
    if (!record || isEngineWork(state)) return;
    this.close(record);
    this.held.delete(task);
  }

  /** A full lane refused the execution: its record waits here for room (and is durable meanwhile). */
  refuse(proc: Process, task: Task, batch: number): void {
    const record = this.held.get(task) ?? this.recordExec(proc, task);
    this.refused.set(record.id, { proc, task, op: record, batch });
  }

  hasWrites(): boolean {
    return this.writes.length > 0;
  }

  /** The record writes of the batch being flushed. */
  take(): OpRow[] {
    return this.writes.splice(0);
  }
}
