/**
 * The `vote` client action on an interrupt act with a quorum rule (vocab/quorum.ts): one person's
 * approval or rejection, recorded in the act's data (so the store batch of the action writes it
 * with any state change it makes), then counted. Votes of one act are serialised on its process's
 * lane like every client action, so two votes at the same instant are counted one after the other.
 *
 * Every check comes before anything changes: the act must have a quorum rule (`vote.not_quorum`)
 * and still wait; the voter (`$voter`, set by the server from the signed-in caller, never by a
 * client) may not be the requester when the rule excludes them (`vote.requester_excluded`), nor
 * vote twice (`vote.already_voted`). `need: all` takes its number of approvals from the server
 * (`$electorate`: the candidates when the first vote came) and keeps it from then on.
 *
 * What a vote decides: `need` approvals complete the act (`outcome: approved`, `approved_by`, and
 * every vote with its comment as `votes`); `reject_after` rejections fail it with `reject_ecode`
 * and the outcome `rejected` (a catch may take it; uncaught, the run ends on the outcome). A vote
 * short of both only records itself. Who may vote at all (a candidate) is the server's check.
 */
import { APPROVED_OUTCOME, ELECTORATE_KEY, ELECTORATE_OPTION, isExcludedRequester, quorumOf, REJECTED_OUTCOME, VOTE_DECISIONS, VOTER_OPTION, VOTES_KEY, voteProgress, type Quorum, type Vote, type VoteDecision } from '../../vocab/quorum.ts';
import type { EngineContext } from './context.ts';
import { ActError } from './errors.ts';
import type { Vars } from './model/types.ts';
import type { Process } from './process.ts';
import type { Task } from './task.ts';
import { asAct } from './tree/node.ts';

/** What the votes decided: the action that closes the act, with its options (and the outcome an error raises). */
export interface VoteDecided {
  action: 'next' | 'error';
  options: Vars;
  outcome?: string;
}

const actName = (task: Task) => asAct(task.node).id || asAct(task.node).key;

/** The quorum rule of an act (from its evaluated params), or null. */
export function taskQuorum(task: Task): Quorum | null {
  if (task.kind !== 'act') return null;
  return quorumOf(task.paramsReady ? task.params : asAct(task.node).params);
}

/** Refuses an answer that would bypass the votes of an act decided by them (complete, submit, outcome). */
export function refuseBypass(task: Task, action: string): void {
  if (!taskQuorum(task)) return;
  throw new ActError('vote.votes_decide', `act '${actName(task)}' is decided by votes, not by one answer: vote on it (inbox.vote) instead of ${action === 'next' ? 'complete' : action}`, { pid: task.pid, tid: task.tid });
}

interface Voter {
  name: string;
  id: string;
}

function voterOf(options: Vars): Voter {
  const v = options[VOTER_OPTION] as { name?: unknown; id?: unknown } | undefined;
  if (!v || typeof v.name !== 'string' || v.name === '') throw new ActError('action.invalid_options', `a vote needs its voter (option '${VOTER_OPTION}' { name, id }), which the server sets`);
  return { name: v.name, id: typeof v.id === 'string' ? v.id : '' };
}

function decisionOf(options: Vars): VoteDecision {
  const d = options.decision;
  if (typeof d !== 'string' || !(VOTE_DECISIONS as readonly string[]).includes(d)) throw new ActError('action.invalid_options', `a vote needs option 'decision': ${VOTE_DECISIONS.join(' or ')}`);
  return d as VoteDecision;
}

/** The approvals needed: a number, or for `all` the one fixed by the first vote (or this vote's `$electorate`). */
function neededApprovals(task: Task, quorum: Quorum, options: Vars): number {
  if (quorum.need !== 'all') return quorum.need;
  const fixed = task.data[ELECTORATE_KEY];
  if (typeof fixed === 'number') return fixed;
  const given = options[ELECTORATE_OPTION];
  if (typeof given === 'number' && Number.isInteger(given) && given >= 1) return given;
  throw new ActError('action.invalid_options', `act '${actName(task)}' needs every candidate's approval: the server names how many (option '${ELECTORATE_OPTION}')`);
}

/** What the tally decides now, if anything. */
function decided(quorum: Quorum, task: Task, need: number): VoteDecided | null {
  const p = voteProgress({ ...quorum, need }, task.data);
  if (p.approvals >= need) {
    return { action: 'next', options: { outcome: APPROVED_OUTCOME, approved_by: p.approvedBy, votes: p.votes } };
  }
  if (p.rejections >= quorum.rejectAfter) {
    const last = p.votes.filter((v) => v.decision === 'reject').at(-1);
    const why = last?.comment ? `: ${last.comment}` : '';
    return { action: 'error', options: { ecode: quorum.rejectEcode, message: `rejected by ${p.rejectedBy.join(', ')}${why}`, rejected_by: p.rejectedBy, votes: p.votes }, outcome: REJECTED_OUTCOME };
  }
  return null;
}

/**
 * Checks and records one vote on an open act; answers what the votes decided (the action that
 * closes the act), or null when they decide nothing yet. A vote already recorded whose tally
 * decided (an action applied again after a code worker evaluated the act's outputs) is not
 * recorded twice: it answers the decision again.
 */
export function castVote(core: EngineContext, proc: Process, task: Task, options: Vars): VoteDecided | null {
  const quorum = taskQuorum(task);
  if (!quorum) throw new ActError('vote.not_quorum', `act '${actName(task)}' is not decided by votes (its params have no quorum): answer it with complete or one of its outcomes`, { pid: proc.pid, tid: task.tid });
  if (task.terminal) throw new ActError('action.refused', `cannot vote on act '${actName(task)}' (${task.tid}): it is already ${task.state}`);
  const voter = voterOf(options);
  const decision = decisionOf(options);
  const comment = typeof options.comment === 'string' && options.comment.trim() !== '' ? options.comment.trim() : undefined;
  if (isExcludedRequester(quorum, voter, proc.owner?.id ?? null)) {
    throw new ActError('vote.requester_excluded', `'${voter.name}' asked for this approval, so may not approve or reject it: someone else decides (four eyes)`, { pid: proc.pid, tid: task.tid, user: voter.name });
  }
  const need = neededApprovals(task, quorum, options);
  const votes = (Array.isArray(task.data[VOTES_KEY]) ? task.data[VOTES_KEY] : []) as Vote[];
  const earlier = votes.find((v) => v.user === voter.name);
  if (earlier) {
    const again = decided(quorum, task, need);
    if (again) return again;
    throw new ActError('vote.already_voted', `'${voter.name}' already voted on this task (${earlier.decision === 'approve' ? 'approved' : 'rejected'}): each person votes once`, { pid: proc.pid, tid: task.tid, user: voter.name, decision: earlier.decision });
  }
  const vote: Vote = { user: voter.name, decision, ...(comment === undefined ? {} : { comment }), time: core.now() };
  task.data = { ...task.data, [VOTES_KEY]: [...votes, vote], ...(quorum.need === 'all' ? { [ELECTORATE_KEY]: need } : {}) };
  core.markDirty(proc, task);
  return decided(quorum, task, need);
}
