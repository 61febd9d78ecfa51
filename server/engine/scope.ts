/** Builds the `ScriptScope` an expression of one task sees (spec 2.12). */
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { ScriptScope, StepAccess } from './sandbox/types.ts';
import type { Task } from './task.ts';
import { isVisible, lookup, updateData } from './vars.ts';

export interface ScopeServices {
  userVars: Map<string, Vars>;
  /** Throws `data.too_large` for a value above the cap (value-cap.ts). */
  checkSize(what: string, value: unknown): void;
  /** The process row changed (its env). */
  touchProcess(proc: Process): void;
  log(level: 'log' | 'info' | 'warn' | 'error', message: string, task: Task): void;
}

function stepAccess(proc: Process, step: Task, services: ScopeServices): StepAccess {
  return {
    get: (key) => step.data[key] ?? null,
    set: (key, value) => {
      if (step.terminal) {
        throw new ActError('script.error', `step '${step.node.id}' is already ${step.state}; its data cannot change`);
      }
      services.checkSize(`the value of '${key}'`, value);
      updateData(step, key, value);
    },
    data: () => step.data,
    inputs: () => step.inputs,
  };
}

export function scopeFor(proc: Process, task: Task, services: ScopeServices): ScriptScope {
  return {
    has: (name) => isVisible(task, name),
    get: (name) => lookup(task, name),
    set: (name, value) => {
      services.checkSize(`the value of '${name}'`, value);
      updateData(task, name, value);
    },
    inputs: () => task.inputs,
    data: () => task.data,
    setProcessVar: (name, value) => {
      services.checkSize(`the value of '${name}'`, value);
      const root = proc.root;
      if (root) {
        root.data[name] = value;
        root.touch();
      }
    },
    envGet: (name) => (name in proc.env ? proc.env[name] : process.env[name] ?? null),
    envSet: (name, value) => {
      services.checkSize(`the value of '$env.${name}'`, value);
      proc.env[name] = value;
      services.touchProcess(proc);
    },
    step: (id) => {
      const step = proc.latestOf(id);
      return step && step.kind === 'step' ? stepAccess(proc, step, services) : undefined;
    },
    userVar: (name) => {
      const defaults = services.userVars.get(name);
      if (!defaults) return undefined;
      const own = lookup(task, name);
      return own && typeof own === 'object' && !Array.isArray(own) ? { ...defaults, ...(own as Vars) } : { ...defaults };
    },
    log: (level, message) => services.log(level, message, task),
  };
}
