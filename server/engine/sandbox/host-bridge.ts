/**
 * Host side of the VM's `host(op, ...)` calls: maps each operation onto the `ScriptScope` of the
 * evaluation in progress and encodes results as JSON text (see protocol.ts).
 */
import type { ScriptScope, StepAccess } from './types.ts';
import { Op, STEP_MARK } from './protocol.ts';

export type HostHandler = (op: number, a: string, b: string, c: string) => string | undefined;

const LOG_LEVELS = new Set(['log', 'info', 'warn', 'error']);

function encode(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  return text === undefined ? 'null' : text;
}

function encodeOptional(value: unknown): string | undefined {
  return value === undefined ? undefined : encode(value);
}

/** The step proxy behind a `<stepId>` global; a step the process has no task of is a ReferenceError. */
export function stepOf(scope: ScriptScope, id: string): StepAccess {
  const step = scope.step(id);
  if (!step) throw new ReferenceError(`step ${id} is not available`);
  return step;
}

/**
 * Name resolution for globals: a registered user var first (its value already overlays the
 * task-visible variable of the same name), then the nearest task variable, then a step proxy.
 */
function lookup(scope: ScriptScope, name: string): string | undefined {
  const userVar = scope.userVar(name);
  if (userVar !== undefined) return encode(userVar);
  if (scope.has(name)) return encode(scope.get(name));
  if (scope.step(name)) return STEP_MARK;
  return undefined;
}

/** Builds the handler; `currentScope` returns the scope of the evaluation in progress. */
export function createHostHandler(currentScope: () => ScriptScope): HostHandler {
  return (op, a, b, c) => {
    const scope = currentScope();
    switch (op) {
      case Op.Lookup:
        return lookup(scope, a);
      case Op.Get:
        return encodeOptional(scope.get(a));
      case Op.Set:
        scope.set(a, JSON.parse(b));
        return undefined;
      case Op.Inputs:
        return encode(scope.inputs());
      case Op.Data:
        return encode(scope.data());
      case Op.SetProcessVar:
        scope.setProcessVar(a, JSON.parse(b));
        return undefined;
      case Op.EnvGet:
        return encodeOptional(scope.envGet(a));
      case Op.EnvSet:
        scope.envSet(a, JSON.parse(b));
        return undefined;
      case Op.StepGet:
        return encodeOptional(stepOf(scope, a).get(b));
      case Op.StepSet:
        stepOf(scope, a).set(b, JSON.parse(c));
        return undefined;
      case Op.StepData:
        return encode(stepOf(scope, a).data());
      case Op.StepInputs:
        return encode(stepOf(scope, a).inputs());
      case Op.Log:
        scope.log((LOG_LEVELS.has(a) ? a : 'log') as Parameters<ScriptScope['log']>[0], b);
        return undefined;
      default:
        throw new Error(`unknown sandbox operation ${op}`);
    }
  };
}
