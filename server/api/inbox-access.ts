/**
 * Who may act on a task. An irq act's assignment (vocab/inbox-principals.ts: `params.assignee`,
 * `params.candidate_users`/`assignees`, `params.roles`, `params.candidate_groups`) restricts it:
 * the caller must be named, hold one of the roles or belong to one of the groups. Without any,
 * any operator may act. Admins may act on every task. Everyone must
 * hold the `operate` permission (policy.ts). `inboxPrincipals` says the same to the read model's
 * inbox, which filters by it in the store.
 */
import type { Caller } from '../auth/types.ts';
import type { Engine } from '../runtime/engine.ts';
import { assignmentOf, assignmentText, EVERY_TASK, isOpenToAll, namesUser, principalsOfCaller, type Assignment } from '../../vocab/inbox-principals.ts';
import { ActError } from '../engine/errors.ts';
import { allows } from './policy.ts';

export { assignmentOf, type Assignment } from '../../vocab/inbox-principals.ts';

export function mayAct(caller: Caller, a: Assignment): boolean {
  if (!allows(caller, 'operate')) return false;
  if (allows(caller, 'override')) return true;
  return isOpenToAll(a) || namesUser(a, caller);
}

/** The inbox principals whose tasks the caller may act on (as `mayAct` decides): none, every task's, or theirs. */
export function inboxPrincipals(caller: Caller): string[] {
  if (!allows(caller, 'operate')) return [];
  if (allows(caller, 'override')) return [EVERY_TASK];
  return principalsOfCaller(caller.name, caller.roles, caller.groups);
}

/** The assignment of a task, from its evaluated params (an act that has not run yet is unrestricted). */
export async function taskAssignment(engine: Engine, pid: string, tid: string): Promise<Assignment> {
  return assignmentOf((await engine.tasks.get(pid, tid)).params);
}

/** Throws `auth.forbidden` unless the caller may act on the task. */
export async function requireMayAct(engine: Engine, caller: Caller, pid: string, tid: string): Promise<void> {
  const a = await taskAssignment(engine, pid, tid);
  if (mayAct(caller, a)) return;
  const who = assignmentText(a);
  throw new ActError('auth.forbidden', `task '${tid}' of process '${pid}' is assigned to ${who}; '${caller.name}' may not act on it`, a);
}
