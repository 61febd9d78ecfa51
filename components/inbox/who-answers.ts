/** "Who may answer" a task, in words, from its assignment (names, roles and groups). */
export interface AssignmentLike {
  assignees: string[];
  roles: string[];
  groups?: string[];
}

export function whoAnswers(a: AssignmentLike, me?: string): string {
  const groups = a.groups ?? [];
  const names = a.assignees.filter((n) => n !== me);
  const parts = [...names, ...a.roles.map((r) => `any ${r}`), ...groups.map((g) => `group ${g}`)];
  if (a.assignees.length === 0 && a.roles.length === 0 && groups.length === 0) return 'any operator';
  if (parts.length === 0) return 'only you';
  return parts.join(', ');
}
