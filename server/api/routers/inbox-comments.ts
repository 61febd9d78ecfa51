/**
 * Comments on inbox tasks (issue: the operator inbox for real teams, item 8): `comment` adds one to
 * an open task — by its holder, or one who could answer it were it free (admins too) — kept as the task's audit
 * entry (`task.comment`, its text in the detail) and told live to the task's inbox rooms;
 * `comments` answers every comment on the tasks of a run, oldest first, so whoever opens a later
 * task of the run reads what was said before. The run page's task history shows them too.
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { COMMENT_ACTION, COMMENT_MAX_CHARS } from '../../../vocab/comments.ts';
import { audited } from '../audit.ts';
import { Claims } from '../claims.ts';
import { mayAct, taskAssignment } from '../inbox-access.ts';
import { id } from '../limits.ts';
import { allowed } from '../trpc.ts';

/** The most comments `comments` answers (the newest of them). */
export const COMMENTS_MAX = 200;

export const commentProcedures = {
  /** Adds a comment to an open task the caller may answer. */
  comment: allowed('operate')
    .input(z.object({ pid: id, tid: id, text: z.string().max(COMMENT_MAX_CHARS * 4) }))
    .mutation(async ({ ctx, input }) => {
      const text = input.text.trim();
      const { engine } = ctx.services;
      return audited(ctx.services, ctx.caller, { action: COMMENT_ACTION, target: `${input.pid}/${input.tid}`, detail: { text }, ids: { pid: input.pid, tid: input.tid } }, async () => {
        if (text === '') throw new ActError('input.invalid', 'a comment needs some text');
        if ([...text].length > COMMENT_MAX_CHARS) throw new ActError('input.invalid', `a comment has at most ${COMMENT_MAX_CHARS} characters (this one has ${[...text].length})`);
        const hold = await new Claims(engine).hold(input.pid, input.tid); // inbox.not_open once answered
        const assignment = await taskAssignment(engine, input.pid, input.tid);
        // its holder, and everyone who could answer it were it free
        if (hold.holder !== ctx.caller.name && !mayAct(ctx.caller, assignment)) {
          throw new ActError('auth.forbidden', `'${ctx.caller.name}' may not answer task '${input.tid}' of process '${input.pid}', so may not comment on it`, { pid: input.pid, tid: input.tid });
        }
        ctx.services.inboxFeed?.commented(input.pid, input.tid, assignment);
        return { pid: input.pid, tid: input.tid, text };
      });
    }),

  /** Every comment on the tasks of run `pid`, oldest first (the newest COMMENTS_MAX). */
  comments: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const { rows } = await ctx.services.audit.query({ targetUnder: input.pid, action: COMMENT_ACTION, limit: COMMENTS_MAX });
      return {
        rows: rows
          .filter((e) => e.result === 'ok')
          .map((e) => ({ id: e.id, time: e.time, author: e.actor_name, tid: e.target.split('/')[1] ?? '', text: String((e.detail as { text?: unknown } | null)?.text ?? '') }))
          .reverse(),
      };
    }),
};
