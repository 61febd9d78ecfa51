/**
 * Who is told of an inbox task by e-mail: the users it is offered to — named (`params.assignee`,
 * `candidate_users`), members of its `candidate_groups`, holders of its `roles` — who have an
 * address, are enabled and may answer it (inbox-access.ts `mayAct`); named users first, then by
 * name, at most `max`. A task offered to no one in particular (any operator) mails no one: the
 * studio's badge tells the operators of it.
 */
import type { UserInfo } from '../auth/types.ts';
import { mayAct } from '../api/inbox-access.ts';
import { isOpenToAll, namesUser, type Assignment } from '../../vocab/inbox-principals.ts';

export interface Recipient {
  name: string;
  email: string;
}

export function recipientsOf(a: Assignment, users: readonly UserInfo[], max: number): Recipient[] {
  if (isOpenToAll(a)) return [];
  const chosen = users.filter(
    (u) => u.email && !u.disabled && namesUser(a, u) && mayAct({ userId: u.id, name: u.name, roles: u.roles, groups: u.groups, via: 'session' }, a),
  );
  const named = (u: UserInfo) => (a.assignees.includes(u.name) ? 0 : 1);
  chosen.sort((x, y) => named(x) - named(y) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return chosen.slice(0, max).map((u) => ({ name: u.name, email: u.email! }));
}
