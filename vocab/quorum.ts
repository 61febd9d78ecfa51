/**
 * M-of-N and four-eyes approvals (issue 15 item 5): an interrupt act whose params carry
 * `quorum: { need, exclude_requester, requester, reject_after, reject_ecode }` is decided by the
 * votes of the people it is offered to (its candidate users, roles and groups), each person once —
 * not by one answer. `need` is a number of approvals, or `all` (every candidate when the first
 * vote came, the requester left out when excluded). `reject_after` rejections (default 1: any one
 * rejection, the four-eyes rule) reject it. The votes live in the act's data under VOTES_KEY
 * (engine state, written with the vote's batch). Shared by the engine (server/engine/votes.ts),
 * the API (server/api/routers/inbox-votes.ts) and the studio (the inbox item, the run graph).
 */

/** The key of the votes cast so far, in the act's data. */
export const VOTES_KEY = '__votes';
/** The key of the number of approvals `need: all` needs, fixed by the first vote, in the act's data. */
export const ELECTORATE_KEY = '__electorate';
/** The options a vote action carries besides the decision: set by the server, never by a client. */
export const VOTER_OPTION = '$voter';
export const ELECTORATE_OPTION = '$electorate';

/** The client action of a vote, and its audit entry on the task. */
export const VOTE_ACTION = 'vote';
export const VOTE_AUDIT_ACTION = 'task.vote';
export const VOTE_DECISIONS = ['approve', 'reject'] as const;
export type VoteDecision = (typeof VOTE_DECISIONS)[number];

/** The ecode a rejection raises unless the act names another (`reject_ecode`). */
export const DEFAULT_REJECT_ECODE = 'rejected';
/** The outcome an approved act records, and the one a rejection raises (uncaught, the run ends on it). */
export const APPROVED_OUTCOME = 'approved';
export const REJECTED_OUTCOME = 'rejected';

/** One vote as the engine keeps it. */
export interface Vote {
  user: string;
  decision: VoteDecision;
  comment?: string;
  time: number;
}

/** An act's quorum rule, read from its evaluated params. */
export interface Quorum {
  /** Approvals needed, or every candidate (`all`). */
  need: number | 'all';
  /** The requester may not vote. */
  excludeRequester: boolean;
  /** The requester the model names (a user name); absent: whoever started the run. */
  requester: string | null;
  /** Rejections that reject the act. */
  rejectAfter: number;
  rejectEcode: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const wholeAtLeastOne = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

/** The quorum rule of an act's params; null when it has none (or not one the schema allows). */
export function quorumOf(params: unknown): Quorum | null {
  if (!isRecord(params) || !isRecord(params.quorum)) return null;
  const q = params.quorum;
  const need = q.need === 'all' ? 'all' : wholeAtLeastOne(q.need) ? q.need : null;
  if (need === null) return null;
  return {
    need,
    excludeRequester: q.exclude_requester === true,
    requester: typeof q.requester === 'string' && q.requester !== '' ? q.requester : null,
    rejectAfter: wholeAtLeastOne(q.reject_after) ? q.reject_after : 1,
    rejectEcode: typeof q.reject_ecode === 'string' && q.reject_ecode !== '' ? q.reject_ecode : DEFAULT_REJECT_ECODE,
  };
}

/** The JSON Schema of `params.quorum` (part of the irq package's params schema). */
export const QUORUM_SCHEMA = {
  type: 'object',
  title: 'Approvals (M of N)',
  description: 'Decided by votes of the people it is offered to, each once, e.g. need: 2 (or all), exclude_requester: true',
  required: ['need'],
  properties: {
    need: { type: ['integer', 'string'], minimum: 1, pattern: '^all$', title: 'Approvals needed', description: 'A number, or all (every candidate when the first vote came)' },
    exclude_requester: { type: 'boolean', title: 'Exclude the requester', description: 'The requester (who started the run, or Requester) may not vote: four eyes' },
    requester: { type: ['string', 'null'], title: 'Requester', description: 'The user who asked, e.g. {{ requester }}; empty: who started the run' },
    reject_after: { type: 'integer', minimum: 1, title: 'Rejections that reject', description: 'How many rejections reject it (default 1: any one)' },
    reject_ecode: { type: 'string', minLength: 1, title: 'Rejection ecode', description: `The ecode a rejection raises for catches (default ${DEFAULT_REJECT_ECODE})` },
  },
  additionalProperties: false,
} as const;

/**
 * Whether a user (their id and name) is the requester a rule leaves out: the user it names, else
 * who started the run (`ownerId`: the process owner's id). The engine refuses their vote; the
 * server leaves them out of `need: all` and tells the inbox.
 */
export function isExcludedRequester(quorum: Quorum, user: { id: string; name: string }, ownerId: string | null): boolean {
  if (!quorum.excludeRequester) return false;
  if (quorum.requester !== null) return quorum.requester === user.name;
  return ownerId !== null && user.id !== '' && user.id === ownerId;
}

/** The votes in an act's data (none when it holds none). */
export function votesOf(data: unknown): Vote[] {
  if (!isRecord(data) || !Array.isArray(data[VOTES_KEY])) return [];
  return (data[VOTES_KEY] as unknown[]).filter((v): v is Vote => isRecord(v) && typeof v.user === 'string' && (v.decision === 'approve' || v.decision === 'reject'));
}

/** Where the votes of an act stand. */
export interface VoteProgress {
  /** Approvals needed (null: `all`, before the first vote fixed the number). */
  need: number | null;
  approvals: number;
  rejections: number;
  rejectAfter: number;
  approvedBy: string[];
  rejectedBy: string[];
  votes: Vote[];
}

/** The progress of an act's votes, from its quorum rule and data. */
export function voteProgress(quorum: Quorum, data: unknown): VoteProgress {
  const votes = votesOf(data);
  const fixed = isRecord(data) && typeof data[ELECTORATE_KEY] === 'number' ? (data[ELECTORATE_KEY] as number) : null;
  const approvedBy = votes.filter((v) => v.decision === 'approve').map((v) => v.user);
  const rejectedBy = votes.filter((v) => v.decision === 'reject').map((v) => v.user);
  return { need: quorum.need === 'all' ? fixed : quorum.need, approvals: approvedBy.length, rejections: rejectedBy.length, rejectAfter: quorum.rejectAfter, approvedBy, rejectedBy, votes };
}

/** "2 of 3 approved" (with "1 rejected" when there are rejections). */
export function progressText(p: Pick<VoteProgress, 'need' | 'approvals' | 'rejections'>): string {
  const of = p.need === null ? 'of all' : `of ${p.need}`;
  return `${p.approvals} ${of} approved${p.rejections > 0 ? ` · ${p.rejections} rejected` : ''}`;
}
