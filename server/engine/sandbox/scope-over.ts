/**
 * A scope over another: every call goes to `inner`. The scopes that change a few of its calls
 * (a trial's, which refuses writes; one reading pending data) extend it and override those.
 */
import type { ScriptScope, StepAccess } from './types.ts';
import type { Vars } from '../model/types.ts';

export type LogLevel = Parameters<ScriptScope['log']>[0];

export class ScopeOver implements ScriptScope {
  constructor(protected readonly inner: ScriptScope) {}

  has(name: string): boolean {
    return this.inner.has(name);
  }
  get(name: string): unknown {
    return this.inner.get(name);
  }
  set(name: string, value: unknown): void {
    this.inner.set(name, value);
  }
  inputs(): Vars {
    return this.inner.inputs();
  }
  data(): Vars {
    return this.inner.data();
  }
  setProcessVar(name: string, value: unknown): void {
    this.inner.setProcessVar(name, value);
  }
  envGet(name: string): unknown {
    return this.inner.envGet(name);
  }
  envSet(name: string, value: unknown): void {
    this.inner.envSet(name, value);
  }
  step(id: string): StepAccess | undefined {
    return this.inner.step(id);
  }
  userVar(name: string): Vars | undefined {
    return this.inner.userVar(name);
  }
  log(level: LogLevel, message: string): void {
    this.inner.log(level, message);
  }
}
