/**
 * The calls a code worker makes on the `ScriptScope` of the task its code runs for (which lives on
 * the engine's thread), and how the engine's side answers them. One vocabulary for both sides.
 */
import { stepOf } from './host-bridge.ts';
import type { ScriptScope } from './types.ts';

export type ScopeCall =
  | { m: 'has' | 'get' | 'userVar' | 'envGet' | 'hasStep'; name: string }
  | { m: 'set' | 'setProcessVar' | 'envSet'; name: string; value: unknown }
  | { m: 'inputs' | 'data' }
  | { m: 'stepGet'; step: string; key: string }
  | { m: 'stepSet'; step: string; key: string; value: unknown }
  | { m: 'stepData' | 'stepInputs'; step: string }
  | { m: 'log'; level: 'log' | 'info' | 'warn' | 'error'; message: string };

/** The answer: the value, or the message of what the scope threw (thrown again in the VM). */
export type ScopeAnswer = { ok: true; value: unknown } | { ok: false; message: string };

function dispatch(scope: ScriptScope, call: ScopeCall): unknown {
  switch (call.m) {
    case 'has':
      return scope.has(call.name);
    case 'get':
      return scope.get(call.name);
    case 'userVar':
      return scope.userVar(call.name);
    case 'envGet':
      return scope.envGet(call.name);
    case 'hasStep':
      return scope.step(call.name) !== undefined;
    case 'set':
      return scope.set(call.name, call.value);
    case 'setProcessVar':
      return scope.setProcessVar(call.name, call.value);
    case 'envSet':
      return scope.envSet(call.name, call.value);
    case 'inputs':
      return scope.inputs();
    case 'data':
      return scope.data();
    case 'stepGet':
      return stepOf(scope, call.step).get(call.key);
    case 'stepSet':
      return stepOf(scope, call.step).set(call.key, call.value);
    case 'stepData':
      return stepOf(scope, call.step).data();
    case 'stepInputs':
      return stepOf(scope, call.step).inputs();
    case 'log':
      return scope.log(call.level, call.message);
  }
}

/** Answers one call on the engine's side. */
export function answerScopeCall(scope: ScriptScope, call: ScopeCall): ScopeAnswer {
  try {
    return { ok: true, value: dispatch(scope, call) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** A `ScriptScope` whose every call goes through `ask` (the worker's side). */
export function scopeOverCalls(ask: (call: ScopeCall) => unknown): ScriptScope {
  return {
    has: (name) => ask({ m: 'has', name }) as boolean,
    get: (name) => ask({ m: 'get', name }),
    set: (name, value) => void ask({ m: 'set', name, value }),
    inputs: () => ask({ m: 'inputs' }) as Record<string, unknown>,
    data: () => ask({ m: 'data' }) as Record<string, unknown>,
    setProcessVar: (name, value) => void ask({ m: 'setProcessVar', name, value }),
    envGet: (name) => ask({ m: 'envGet', name }),
    envSet: (name, value) => void ask({ m: 'envSet', name, value }),
    step: (id) =>
      ask({ m: 'hasStep', name: id })
        ? {
            get: (key) => ask({ m: 'stepGet', step: id, key }),
            set: (key, value) => void ask({ m: 'stepSet', step: id, key, value }),
            data: () => ask({ m: 'stepData', step: id }) as Record<string, unknown>,
            inputs: () => ask({ m: 'stepInputs', step: id }) as Record<string, unknown>,
          }
        : undefined,
    userVar: (name) => ask({ m: 'userVar', name }) as Record<string, unknown> | undefined,
    log: (level, message) => void ask({ m: 'log', level, message }),
  };
}
