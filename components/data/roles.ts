/**
 * Role checks in the studio, from the server's own policy table (server/api/policy.ts), so a
 * button is shown exactly when the server would allow its call. The server still checks.
 */
import { PERMISSIONS, type Permission } from '../../server/api/policy.ts';
import type { Caller, Role } from '../../server/auth/types.ts';

export type { Caller, Permission, Role };

/** Whether the caller's roles grant `permission` ('read', 'operate', 'design', 'admin', 'self'). */
export function can(caller: Pick<Caller, 'roles'> | null | undefined, permission: Permission): boolean {
  if (!caller) return false;
  const granted: readonly Role[] = PERMISSIONS[permission];
  return caller.roles.some((role) => granted.includes(role));
}

/** The roles that grant `permission`, for "ask an admin for …" messages. */
export function rolesFor(permission: Permission): readonly Role[] {
  return PERMISSIONS[permission];
}
