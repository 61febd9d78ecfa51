/** "Who may answer" a task, in words, from its assignment (names and roles). */
export interface AssignmentLike {
  assignees: string[];
  roles: string[];
}

export function whoAnswers(a: AssignmentLike, me?: string): string {
  const names = a.assignees.filter((n) => n !== me);
  const parts = [...names, ...a.roles.map((r) => `any ${r}`)];
  if (a.assignees.length === 0 && a.roles.length === 0) return 'any operator';
  if (parts.length === 0) return 'only you';
  return parts.join(', ');
}
