/**
 * Who may act on an inbox task, as principals: an irq act's assignment (`params.assignees`,
 * `params.roles`), the principals it names, and those a caller sees. One vocabulary for the inbox
 * rows the runtime writes (server/runtime/inbox-rows.ts) and the API's checks
 * (server/api/inbox-access.ts).
 */

/** An irq act's restriction: `params.assignees` (user names) and `params.roles`. Neither: any operator. */
export interface Assignment {
  assignees: string[];
  roles: string[];
}

const NONE: Assignment = { assignees: [], roles: [] };

/** A params field of names (one name or a list) as a list; anything else names none. */
export function nameList(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** The restriction in an act's evaluated params. */
export function assignmentOf(params: unknown): Assignment {
  if (typeof params !== 'object' || params === null) return NONE;
  const p = params as Record<string, unknown>;
  return { assignees: nameList(p.assignees), roles: nameList(p.roles) };
}

/** The principal of every inbox task: callers who may act on any task read its rows. */
export const EVERY_TASK = '';
/** The principal of tasks without an assignment: any operator. */
export const UNASSIGNED = '*';
export const userPrincipal = (name: string): string => `user:${name}`;
export const rolePrincipal = (role: string): string => `role:${role}`;

/** The principals an assignment names. */
export function principalsOf(a: Assignment): string[] {
  if (a.assignees.length === 0 && a.roles.length === 0) return [UNASSIGNED];
  return [...new Set([...a.assignees.map(userPrincipal), ...a.roles.map(rolePrincipal)])];
}

/** The principals a caller who may act on assigned tasks (not on every task) sees the tasks of. */
export function principalsOfCaller(name: string, roles: readonly string[]): string[] {
  return [UNASSIGNED, userPrincipal(name), ...roles.map(rolePrincipal)];
}
