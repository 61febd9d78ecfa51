/**
 * The server's role checks, on the one role table (vocab/roles.ts: which roles may do what).
 * Revoking a token also checks that it is the caller's own (or the caller is admin).
 */
import { ActError } from '../engine/errors.ts';
import type { Caller } from '../auth/types.ts';
import { grants, PERMISSIONS, type Permission } from '../../vocab/roles.ts';

export function allows(caller: Caller, permission: Permission): boolean {
  return grants(caller.roles, permission);
}

/** Throws `auth.required` without a caller and `auth.forbidden` without the permission. */
export function requirePermission(caller: Caller | null, permission: Permission): Caller {
  if (!caller) throw new ActError('auth.required', 'sign in first (session cookie or Authorization: Bearer <token>)');
  if (!allows(caller, permission)) {
    throw new ActError('auth.forbidden', `'${caller.name}' may not do this: it needs one of the roles ${PERMISSIONS[permission].join(', ')}`);
  }
  return caller;
}
