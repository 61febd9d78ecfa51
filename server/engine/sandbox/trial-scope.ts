/**
 * The scope of a trial evaluation on the engine's thread (Sandbox.evaluate with a `trial`): reads
 * pass through, console output is held until the evaluation succeeded, and the first write ends
 * the trial (`wrote`), so a trial never changes a task. An evaluation that writes or outgrows its
 * slice is then evaluated again on a code worker, where writes reach the task as they happen.
 */
import type { ScriptScope, StepAccess } from './types.ts';
import { ScopeOver, type LogLevel } from './scope-over.ts';

export class TrialScope extends ScopeOver {
  /** A write was refused: the trial's result must not be used. */
  wrote = false;
  private readonly logs: Array<[LogLevel, string]> = [];

  constructor(
    inner: ScriptScope,
    /** Called on the first write: the evaluation is to stop as soon as it can. */
    private readonly onWrite: () => void,
  ) {
    super(inner);
  }

  override set(): void {
    this.refuse();
  }
  override setProcessVar(): void {
    this.refuse();
  }
  override envSet(): void {
    this.refuse();
  }
  override step(id: string): StepAccess | undefined {
    const step = this.inner.step(id);
    if (!step) return undefined;
    return { get: (key) => step.get(key), set: () => this.refuse(), data: () => step.data(), inputs: () => step.inputs() };
  }
  override log(level: LogLevel, message: string): void {
    this.logs.push([level, message]);
  }

  /** Hands the held console output to the real scope (the trial's result is used). */
  flushLogs(): void {
    for (const [level, message] of this.logs.splice(0)) this.inner.log(level, message);
  }

  private refuse(): never {
    this.wrote = true;
    this.onWrite();
    throw new Error('a trial evaluation does not write; it continues on a code worker');
  }
}
