/**
 * Who may act on a task. An irq act's `params.assignees` (user names) and `params.roles` restrict
 * it: the caller must be named, or hold one of the roles. Without either, any operator may act.
 * Admins may act on every task. Everyone must hold the `operate` permission (policy.ts).
 */
import type { Caller } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import { ActError } from '../engine/errors.ts';
import { allows } from './policy.ts';

export interface Assignment {
  assignees: string[];
  roles: string[];
}

const NONE: Assignment = { assignees: [], roles: [] };

function names(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** The restriction in an act's evaluated params. */
export function assignmentOf(params: unknown): Assignment {
  if (typeof params !== 'object' || params === null) return NONE;
  const p = params as Record<string, unknown>;
  return { assignees: names(p.assignees), roles: names(p.roles) };
}

export function mayAct(caller: Caller, a: Assignment): boolean {
  if (!allows(caller, 'operate')) return false;
  if (allows(caller, 'override')) return true;
  if (a.assignees.length === 0 && a.roles.length === 0) return true;
  return a.assignees.includes(caller.name) || caller.roles.some((r) => a.roles.includes(r));
}

/** The assignment of a task, from its evaluated params (an act that has not run yet is unrestricted). */
export async function taskAssignment(engine: Engine, pid: string, tid: string): Promise<Assignment> {
  return assignmentOf((await engine.tasks.get(pid, tid)).params);
}

/** Throws `auth.forbidden` unless the caller may act on the task. */
export async function requireMayAct(engine: Engine, caller: Caller, pid: string, tid: string): Promise<void> {
  const a = await taskAssignment(engine, pid, tid);
  if (mayAct(caller, a)) return;
  const who = [...a.assignees.map((n) => `user ${n}`), ...a.roles.map((r) => `role ${r}`)].join(', ');
  throw new ActError('auth.forbidden', `task '${tid}' of process '${pid}' is assigned to ${who}; '${caller.name}' may not act on it`, a);
}
