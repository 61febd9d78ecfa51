/**
 * `acts vote <pid> <tid> approve|reject [--comment <text>]`: the caller's vote on an open inbox
 * task decided by several people (M-of-N, four-eyes: vocab/quorum.ts, docs/server.md "Votes").
 * Prints where the votes stand after it as one JSON line: {"pid","tid","decision","approvals",
 * "rejections","need"} (`need` null: every candidate, before the first vote fixed the number).
 */
import { VOTE_DECISIONS, type VoteDecision } from '../../../vocab/quorum.ts';
import { EXIT } from '../errors.ts';
import type { ConnectionFlags } from './connection.ts';
import { usage } from './failure.ts';
import { runRemote, type Io } from './session.ts';

export interface VoteFlags extends ConnectionFlags {
  comment?: string;
}

export function voteCommand(pid: string, tid: string, decision: string, flags: VoteFlags, io: Io): Promise<number> {
  return runRemote(flags, io, async ({ client }) => {
    if (!(VOTE_DECISIONS as readonly string[]).includes(decision)) throw usage(`vote ${VOTE_DECISIONS.join(' or ')}, not '${decision}'`);
    const done = await client.inbox.vote.mutate({ pid, tid, decision: decision as VoteDecision, ...(flags.comment ? { comment: flags.comment } : {}) });
    io.out(JSON.stringify(done));
    return EXIT.complete;
  });
}
