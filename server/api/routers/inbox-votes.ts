/**
 * Votes on inbox tasks decided by several people (M-of-N and four-eyes, vocab/quorum.ts):
 * `vote` — the caller approves or rejects an open task once, with an optional comment (the
 * engine records and counts it on the process's lane: engine/votes.ts); audited on the task
 * (`task.vote`, the decision and comment in the detail, so the run page's task history shows it)
 * and told live to the task's inbox rooms; `votes` — where the votes stand on each act of a run
 * that is decided by them (the run graph's badges). Refusals: `inbox.not_open` (answered or
 * closed), `vote.not_quorum`, `auth.forbidden` (not one the act names), `vote.requester_excluded`,
 * `vote.already_voted`, `input.invalid` (a comment too long).
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { COMMENT_MAX_CHARS } from '../../../vocab/comments.ts';
import { assignmentOf } from '../../../vocab/inbox-principals.ts';
import { ELECTORATE_KEY, ELECTORATE_OPTION, quorumOf, VOTE_ACTION, VOTE_AUDIT_ACTION, VOTE_DECISIONS, VOTER_OPTION } from '../../../vocab/quorum.ts';
import { audited } from '../audit.ts';
import { id } from '../limits.ts';
import { electorateOf, requireMayVote, taskVotes } from '../votes.ts';
import { allowed } from '../trpc.ts';

export const voteProcedures = {
  /** The caller's approval or rejection of an open task decided by votes. */
  vote: allowed('operate')
    .input(z.object({ pid: id, tid: id, decision: z.enum(VOTE_DECISIONS), comment: z.string().max(COMMENT_MAX_CHARS * 4).optional() }))
    .mutation(({ ctx, input }) => {
      const { pid, tid, decision } = input;
      const comment = input.comment?.trim() ?? '';
      return audited(ctx.services, ctx.caller, { action: VOTE_AUDIT_ACTION, target: `${pid}/${tid}`, detail: { decision, ...(comment ? { text: comment } : {}) }, ids: { pid, tid } }, async () => {
        const { engine, auth } = ctx.services;
        const task = await engine.tasks.get(pid, tid);
        if (task.state !== 'interrupted') throw new ActError('inbox.not_open', `task '${tid}' of process '${pid}' is not waiting for votes any more (decided, or closed)`, { pid, tid });
        const quorum = quorumOf(task.params);
        if (!quorum) throw new ActError('vote.not_quorum', `task '${tid}' of process '${pid}' is not decided by votes: answer it with complete or one of its outcomes`, { pid, tid });
        const assignment = assignmentOf(task.params);
        requireMayVote(ctx.caller, pid, tid, assignment);
        if ([...comment].length > COMMENT_MAX_CHARS) throw new ActError('input.invalid', `a comment has at most ${COMMENT_MAX_CHARS} characters (this one has ${[...comment].length})`);
        const options: Record<string, unknown> = { decision, ...(comment ? { comment } : {}), [VOTER_OPTION]: { name: ctx.caller.name, id: ctx.caller.userId } };
        if (quorum.need === 'all' && typeof task.data[ELECTORATE_KEY] !== 'number') {
          options[ELECTORATE_OPTION] = await electorateOf(auth, assignment, quorum, (await engine.procs.summary(pid)).owner);
        }
        await engine.do({ pid, tid, action: VOTE_ACTION, options });
        const after = taskVotes(await engine.tasks.get(pid, tid));
        ctx.services.inboxFeed?.voted(pid, tid, assignment);
        return { pid, tid, decision, approvals: after?.approvals ?? 0, rejections: after?.rejections ?? 0, need: after?.need ?? null };
      });
    }),

  /** Where the votes stand on each act of run `pid` decided by them (open or decided). */
  votes: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const rows = [];
      for (const task of await ctx.services.engine.tasks.list(input.pid)) {
        const votes = task.kind === 'act' ? taskVotes(task) : null;
        if (!votes) continue;
        const { quorum: _quorum, ...progress } = votes;
        rows.push({ tid: task.tid, nid: task.nid, state: task.state, ...progress });
      }
      return { rows };
    }),
};
