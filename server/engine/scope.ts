/**
 * Builds the `ScriptScope` an expression of one task sees (spec 2.12). Classes rather than objects
 * of closures: a scope is made for every evaluation, and the methods of a class are shared.
 */
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { ScriptScope, StepAccess } from './sandbox/types.ts';
import type { Task } from './task.ts';
import { isVisible, lookup, updateData } from './vars.ts';
import { ScopeOver } from './sandbox/scope-over.ts';

export interface ScopeServices {
  userVars: Map<string, Vars>;
  /** Throws `data.too_large` for a value above the cap (value-cap.ts). */
  checkSize(what: string, value: unknown): void;
  /** The process row changed (its env). */
  touchProcess(proc: Process): void;
  log(level: 'log' | 'info' | 'warn' | 'error', message: string, task: Task): void;
}

class StepScope implements StepAccess {
  constructor(
    private readonly step: Task,
    private readonly services: ScopeServices,
  ) {}

  get(key: string): unknown {
    return this.step.data[key] ?? null;
  }

  set(key: string, value: unknown): void {
    const { step } = this;
    if (step.terminal) throw new ActError('script.error', `step '${step.node.id}' is already ${step.state}; its data cannot change`);
    this.services.checkSize(`the value of '${key}'`, value);
    updateData(step, key, value);
  }

  data(): Vars {
    return this.step.data;
  }

  inputs(): Vars {
    return this.step.inputs;
  }
}

class TaskScope implements ScriptScope {
  constructor(
    private readonly proc: Process,
    private readonly task: Task,
    private readonly services: ScopeServices,
  ) {}

  has(name: string): boolean {
    return isVisible(this.task, name);
  }

  get(name: string): unknown {
    return lookup(this.task, name);
  }

  set(name: string, value: unknown): void {
    this.services.checkSize(`the value of '${name}'`, value);
    updateData(this.task, name, value);
  }

  inputs(): Vars {
    return this.task.inputs;
  }

  data(): Vars {
    return this.task.data;
  }

  setProcessVar(name: string, value: unknown): void {
    this.services.checkSize(`the value of '${name}'`, value);
    const root = this.proc.root;
    if (root) {
      root.data[name] = value;
      root.touch();
    }
  }

  envGet(name: string): unknown {
    const env = this.proc.env;
    return name in env ? env[name] : (process.env[name] ?? null);
  }

  envSet(name: string, value: unknown): void {
    this.services.checkSize(`the value of '$env.${name}'`, value);
    this.proc.env[name] = value;
    this.services.touchProcess(this.proc);
  }

  step(id: string): StepAccess | undefined {
    const step = this.proc.latestOf(id);
    return step && step.kind === 'step' ? new StepScope(step, this.services) : undefined;
  }

  userVar(name: string): Vars | undefined {
    const defaults = this.services.userVars.get(name);
    if (!defaults) return undefined;
    const own = lookup(this.task, name);
    return own && typeof own === 'object' && !Array.isArray(own) ? { ...defaults, ...(own as Vars) } : { ...defaults };
  }

  log(level: 'log' | 'info' | 'warn' | 'error', message: string): void {
    this.services.log(level, message, this.task);
  }
}

export function scopeFor(proc: Process, task: Task, services: ScopeServices): ScriptScope {
  return new TaskScope(proc, task, services);
}

/** What a scope reads its variables from. */
export type ScopeReads = Pick<ScriptScope, 'has' | 'get' | 'data'>;

/** `base` reading its variables from `reads` instead (everything else, writes included, as `base`). */
class ReadingFrom extends ScopeOver {
  constructor(
    base: ScriptScope,
    private readonly reads: ScopeReads,
  ) {
    super(base);
  }

  override has(name: string): boolean {
    return this.reads.has(name);
  }

  override get(name: string): unknown {
    return this.reads.get(name);
  }

  override data(): Vars {
    return this.reads.data();
  }
}

/** A scope like `base` whose variables are read from `reads` (a scope is a class: spreading it would drop its methods). */
export function scopeReadingFrom(base: ScriptScope, reads: ScopeReads): ScriptScope {
  return new ReadingFrom(base, reads);
}
