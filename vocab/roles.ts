/**
 * The roles and what each may do, in one table read by the server's checks (server/api/policy.ts)
 * and the studio (which shows a button exactly when the server would allow its call). Every
 * signed-in user manages their own account (password, API tokens); viewer reads everything;
 * operator adds process and task work; designer adds model and trigger management; admin may do
 * everything, including users, the tokens of others and the audit log, and passes every
 * assignment check. Task actions also pass the assignment check of server/api/inbox-access.ts,
 * changes of a whole process (abort, set-vars, push) that of server/api/process-access.ts.
 */

export const ROLES = ['admin', 'designer', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What each role adds, in words (labels and hints). */
export const ROLE_NOTES: Readonly<Record<Role, string>> = {
  admin: 'everything, including users, others’ tokens and the audit log',
  designer: 'models and triggers',
  operator: 'runs and tasks',
  viewer: 'reads everything',
};

export const PERMISSIONS = {
  /** Their own account: change their password; list, create and revoke their own API tokens. */
  self: ['viewer', 'operator', 'designer', 'admin'],
  /** Read models, processes, tasks, messages, triggers, packages, health. */
  read: ['viewer', 'operator', 'designer', 'admin'],
  /** Start processes, client actions, abort, set-vars, ack/redo/clear messages, fire triggers; answer tasks assigned to no one. */
  operate: ['operator', 'admin'],
  /** Set breakpoints on a run's nodes (operators debug runs, designers debug their models). */
  debug: ['operator', 'designer', 'admin'],
  /** Validate, deploy, remove and import models; enable and disable triggers. */
  design: ['designer', 'admin'],
  /** Users (list, create, roles, passwords, disable/enable), the tokens of others, the audit log. */
  admin: ['admin'],
  /** Past every assignment: answer any task, change any process whoever its open tasks wait for, hear every inbox change. */
  override: ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether any of `roles` grants `permission`. */
export function grants(roles: readonly Role[], permission: Permission): boolean {
  const granted: readonly Role[] = PERMISSIONS[permission];
  return roles.some((role) => granted.includes(role));
}
