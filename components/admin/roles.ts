/** The roles a user can hold (the server's list) and what each adds, for labels and hints. */
import type { Role } from '../../server/auth/types.ts';

export const ROLES: readonly Role[] = ['admin', 'designer', 'operator', 'viewer'];

export const ROLE_NOTES: Record<Role, string> = {
  admin: 'everything, including users, others’ tokens and the audit log',
  designer: 'models and triggers',
  operator: 'runs and tasks',
  viewer: 'reads everything',
};
