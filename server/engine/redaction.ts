/**
 * Secret values out of what an act writes: the vars it sets (an answer that echoes a token) and
 * the error it fails with (a URL with a token in it) have every value the act's params read
 * (`task.secretValues`, memory only) replaced by `***` before they reach the task's data, rows,
 * messages or logs.
 */
import type { ErrorInfo } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Task } from './task.ts';
import { REDACTED } from '../../vocab/secrets.ts';

export function redactText(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (value) out = out.split(value).join(REDACTED);
  return out;
}

function redactValue(value: unknown, values: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, values);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, values));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k, values), redactValue(v, values)]));
  return value;
}

/** The vars an act writes, without the values of its secrets. */
export function redactVars(task: Task, vars: Vars): Vars {
  const values = task.secretValues;
  return values ? (redactValue(vars, values) as Vars) : vars;
}

/** The error an act fails with, without the values of its secrets. */
export function redactError(task: Task, info: ErrorInfo): ErrorInfo {
  const values = task.secretValues;
  return values ? { ...info, message: redactText(info.message, values) } : info;
}
