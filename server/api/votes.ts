/**
 * The server's part of M-of-N approvals (vocab/quorum.ts; the engine counts: engine/votes.ts):
 * who may vote — one the act names by user, role or group (any operator when it names no one),
 * with the `operate` permission; an admin's override does not make them a voter, since a vote is
 * a person's, not a correction — how many approvals `need: all` asks (the enabled operators it
 * names when the first vote comes, the requester left out when excluded), and where the votes of
 * a task stand, for the inbox and the run graph.
 */
import type { Auth, Caller } from '../auth/types.ts';
import { ActError } from '../engine/errors.ts';
import type { Engine } from '../runtime/engine.ts';
import type { TaskInfo } from '../runtime/info.ts';
import { assignmentOf, assignmentText, isOpenToAll, namesUser, type Assignment } from '../../vocab/inbox-principals.ts';
import { isExcludedRequester, quorumOf, voteProgress, type Quorum, type VoteProgress } from '../../vocab/quorum.ts';
import { grants } from '../../vocab/roles.ts';

/** Whether a user (by name, roles and groups) is one the assignment names as a voter. */
function named(user: { name: string; roles: readonly string[]; groups: readonly string[] }, a: Assignment): boolean {
  return grants(user.roles as Caller['roles'], 'operate') && (isOpenToAll(a) || namesUser(a, user));
}

/** Throws `auth.forbidden` unless the caller may vote on the task. */
export function requireMayVote(caller: Caller, pid: string, tid: string, a: Assignment): void {
  if (named(caller, a)) return;
  throw new ActError('auth.forbidden', `'${caller.name}' may not vote on task '${tid}' of process '${pid}': its votes are for ${assignmentText(a) || 'operators'}`, { pid, tid, ...a });
}

/** How many approvals `need: all` asks: the enabled users it names now, less the requester when excluded (`owner`: who started the run). */
export async function electorateOf(auth: Auth, a: Assignment, quorum: Quorum, owner: string | null): Promise<number> {
  const users = await auth.users.list();
  return users.filter((u) => !u.disabled && named(u, a) && !isExcludedRequester(quorum, u, owner)).length;
}

/** What the caller may do on a task decided by votes (`owner`: who started its run): vote, or not, being its excluded requester. */
export function callerAsVoter(caller: Caller, params: unknown, owner: string | null): { mayVote: boolean; requester: boolean } {
  const quorum = quorumOf(params);
  const requester = quorum !== null && isExcludedRequester(quorum, { id: caller.userId, name: caller.name }, owner);
  return { mayVote: quorum !== null && !requester && named(caller, assignmentOf(params)), requester };
}

/** Where the votes of a task stand, with its quorum rule; null for a task not decided by votes. */
export function taskVotes(task: Pick<TaskInfo, 'params' | 'data'>): (VoteProgress & { quorum: Quorum }) | null {
  const quorum = quorumOf(task.params);
  return quorum ? { ...voteProgress(quorum, task.data), quorum } : null;
}

/** Where the votes stand of each item of a page that is decided by votes (`votes`; one task read each, for those only). */
export async function withVotes<T extends { pid: string; tid: string; params: unknown }>(engine: Engine, items: T[]): Promise<Array<T & { votes?: VoteProgress }>> {
  return Promise.all(
    items.map(async (item) => {
      if (!quorumOf(item.params)) return item;
      const task = await engine.tasks.get(item.pid, item.tid).catch(() => null);
      const votes = task && taskVotes(task);
      if (!votes) return item;
      const { quorum: _quorum, ...progress } = votes;
      return { ...item, votes: progress };
    }),
  );
}

/**
 * Refuses what one person would decide alone on a task decided by votes (`vote.votes_decide`): a
 * claim or any other change of hands (several people answer it, none holds it), and a task action
 * by a non-admin (`what` says which).
 */
export async function refuseOnVotedTask(engine: Engine, pid: string, tid: string, what: string): Promise<void> {
  const task = await engine.tasks.get(pid, tid).catch(() => null);
  const quorum = task && quorumOf(task.params);
  if (!quorum) return;
  const need = quorum.need === 'all' ? 'every candidate' : `${quorum.need}`;
  throw new ActError('vote.votes_decide', `task '${tid}' of process '${pid}' is decided by votes (${need} must approve), so it cannot be ${what}: vote on it instead`, { pid, tid });
}
