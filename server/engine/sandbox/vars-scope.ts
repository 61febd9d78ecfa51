/**
 * A `ScriptScope` over one plain map of variables, without steps, env or user vars: for
 * evaluating expressions outside a process (benchmarks, template tests, tools).
 */
import type { Vars } from '../model/types.ts';
import type { ScriptScope } from './types.ts';

export function varsScope(vars: Vars): ScriptScope {
  const write = (name: string, value: unknown) => {
    vars[name] = value;
  };
  return {
    has: (name) => Object.hasOwn(vars, name),
    get: (name) => vars[name],
    set: write,
    inputs: () => ({}),
    data: () => vars,
    setProcessVar: write,
    envGet: () => undefined,
    envSet: () => undefined,
    step: () => undefined,
    userVar: () => undefined,
    log: () => undefined,
  };
}
