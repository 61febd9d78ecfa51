/**
 * The role policy, in one table: which roles may do what. Every signed-in user manages their own
 * account (password, API tokens); viewer reads everything; operator adds process and task work;
 * designer adds model and trigger management; admin may do everything, including users, the
 * tokens of others and the audit log. Task actions also pass the assignment check of
 * inbox-access.ts, changes of a whole process (abort, set-vars, push) that of process-access.ts; revoking a token also checks that it is the caller's own (or the caller is admin).
 */
import { ActError } from '../engine/errors.ts';
import type { Caller, Role } from '../auth/types.ts';

export const PERMISSIONS = {
  /** Their own account: change their password; list, create and revoke their own API tokens. */
  self: ['viewer', 'operator', 'designer', 'admin'],
  /** Read models, processes, tasks, messages, triggers, packages, health. */
  read: ['viewer', 'operator', 'designer', 'admin'],
  /** Start processes, client actions, abort, set-vars, ack/redo/clear messages, fire triggers. */
  operate: ['operator', 'admin'],
  /** Validate, deploy, remove and import models; enable and disable triggers. */
  design: ['designer', 'admin'],
  /** Users (list, create, roles, passwords, disable/enable), the tokens of others, the audit log. */
  admin: ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function allows(caller: Caller, permission: Permission): boolean {
  const roles: readonly Role[] = PERMISSIONS[permission];
  return caller.roles.some((r) => roles.includes(r));
}

/** Throws `auth.required` without a caller and `auth.forbidden` without the permission. */
export function requirePermission(caller: Caller | null, permission: Permission): Caller {
  if (!caller) throw new ActError('auth.required', 'sign in first (session cookie or Authorization: Bearer <token>)');
  if (!allows(caller, permission)) {
    throw new ActError('auth.forbidden', `'${caller.name}' may not do this: it needs one of the roles ${PERMISSIONS[permission].join(', ')}`);
  }
  return caller;
}
