/**
 * Who may act on an inbox task, as principals: an irq act's assignment (`params.assignee`, the
 * candidates `params.candidate_users` / `params.assignees`, `params.roles` and
 * `params.candidate_groups`), the principals it names, and those a caller sees. One vocabulary
 * for the inbox rows the runtime writes (server/runtime/inbox-rows.ts) and the API's checks
 * (server/api/inbox-access.ts).
 */

/** An irq act's restriction. None of users, roles and groups: any operator. */
export interface Assignment {
  /** The user the task is given to when it opens (`params.assignee`): it starts in their hands. */
  assignee: string | null;
  /** Users who may answer: the assignee, `params.candidate_users` and `params.assignees`. */
  assignees: string[];
  /** Roles whose users may answer (`params.roles`). */
  roles: string[];
  /** Groups whose members may answer (`params.candidate_groups`). */
  groups: string[];
}

/** The params of an irq act that name who may answer it (an escalation replaces them all). */
export const ASSIGNMENT_PARAMS = ['assignee', 'candidate_users', 'assignees', 'roles', 'candidate_groups'] as const;

const NONE: Assignment = { assignee: null, assignees: [], roles: [], groups: [] };

/** A params field of names (one name or a list) as a list; anything else names none. */
export function nameList(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** The restriction in an act's evaluated params. */
export function assignmentOf(params: unknown): Assignment {
  if (typeof params !== 'object' || params === null) return NONE;
  const p = params as Record<string, unknown>;
  const assignee = nameList(p.assignee)[0] ?? null;
  const assignees = [...new Set([...(assignee ? [assignee] : []), ...nameList(p.candidate_users), ...nameList(p.assignees)])];
  return { assignee, assignees, roles: nameList(p.roles), groups: [...new Set(nameList(p.candidate_groups))] };
}

/** Whether the assignment names no one (any operator may act). */
export function isOpenToAll(a: Assignment): boolean {
  return a.assignees.length === 0 && a.roles.length === 0 && a.groups.length === 0;
}

/** Whether the assignment names the user: by name, or one of their roles or groups (one that names no one names no user). */
export function namesUser(a: Assignment, user: { name: string; roles: readonly string[]; groups: readonly string[] }): boolean {
  return a.assignees.includes(user.name) || user.roles.some((r) => a.roles.includes(r)) || user.groups.some((g) => a.groups.includes(g));
}

/** Who an assignment names, in words (`user ann, role admin, group finance`). */
export function assignmentText(a: Assignment): string {
  return [...a.assignees.map((n) => `user ${n}`), ...a.roles.map((r) => `role ${r}`), ...a.groups.map((g) => `group ${g}`)].join(', ');
}

/** The principal of every inbox task: callers who may act on any task read its rows. */
export const EVERY_TASK = '';
/** The principal of tasks without an assignment: any operator. */
export const UNASSIGNED = '*';
export const userPrincipal = (name: string): string => `user:${name}`;
export const rolePrincipal = (role: string): string => `role:${role}`;
export const groupPrincipal = (group: string): string => `group:${group}`;

/** The principals an assignment names. */
export function principalsOf(a: Assignment): string[] {
  if (isOpenToAll(a)) return [UNASSIGNED];
  return [...new Set([...a.assignees.map(userPrincipal), ...a.roles.map(rolePrincipal), ...a.groups.map(groupPrincipal)])];
}

/** The principals a caller who may act on assigned tasks (not on every task) sees the tasks of. */
export function principalsOfCaller(name: string, roles: readonly string[], groups: readonly string[] = []): string[] {
  return [UNASSIGNED, userPrincipal(name), ...roles.map(rolePrincipal), ...groups.map(groupPrincipal)];
}
