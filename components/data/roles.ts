/**
 * Role checks in the studio, from the one role table the server checks with (vocab/roles.ts), so
 * a button is shown exactly when the server would allow its call. The server still checks.
 */
import type { Caller } from '../../server/auth/types.ts';
import { grants, PERMISSIONS, type Permission, type Role } from '../../vocab/roles.ts';

export type { Caller, Permission, Role };

/** Whether the caller's roles grant `permission` ('read', 'operate', 'design', 'admin', 'self', 'override'). */
export function can(caller: Pick<Caller, 'roles'> | null | undefined, permission: Permission): boolean {
  return caller ? grants(caller.roles, permission) : false;
}

/** The roles that grant `permission`, for "ask an admin for …" messages. */
export function rolesFor(permission: Permission): readonly Role[] {
  return PERMISSIONS[permission];
}
