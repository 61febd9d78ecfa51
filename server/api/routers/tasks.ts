/**
 * Tasks: one procedure per client action (complete, submit, back, cancel, abort, skip, error,
 * push, remove, set-vars, outcome), each checked against the task's assignment — and, when it changes the
 * whole process (on the root, abort, set-vars, push), against process-access.ts —, an answer's
 * file references against the uploads of the task (answer-files.ts), audited, and refused with the
 * engine's own reason (`action.refused`, `action.invalid_options` …); plus `get`.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { Claims } from '../claims.ts';
import { mayAct, taskAssignment } from '../inbox-access.ts';
import { id, vars } from '../limits.ts';
import { isProcessWide, requireMayChangeProcess } from '../process-access.ts';
import { allowed, router } from '../trpc.ts';
import { shownTask } from '../large-values.ts';
import { COMMENT_ACTION } from '../../../vocab/comments.ts';
import { VOTE_AUDIT_ACTION } from '../../../vocab/quorum.ts';
import { requireUploadedFiles } from '../answer-files.ts';
import { toActError } from '../errors.ts';
import type { Engine } from '../../runtime/engine.ts';
import { ESCALATE_ACTION, escalationsOf, escalationText } from '../../../vocab/escalations.ts';

const target = z.object({ pid: id, tid: id, options: vars.default({}) });

function action(name: string) {
  return allowed('operate')
    .input(target)
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: `task.${name}`, target: `${input.pid}/${input.tid}`, detail: { options: input.options }, ids: { pid: input.pid, tid: input.tid } }, async () => {
        const { engine } = ctx.services;
        await new Claims(engine).requireMayAnswer(ctx.caller, input.pid, input.tid);
        if (isProcessWide(name, input.tid)) await requireMayChangeProcess(engine, ctx.caller, input.pid);
        await requireUploadedFiles(engine, input.pid, input.tid, name, input.options);
        await engine.do({ pid: input.pid, tid: input.tid, action: name, options: input.options });
        return { pid: input.pid, tid: input.tid, action: name };
      }),
    );
}

/** A task's params; null when its process or the task is gone (its audit entries stay). */
async function paramsOfTask(engine: Engine, pid: string, tid: string): Promise<unknown> {
  try {
    return (await engine.tasks.get(pid, tid)).params;
  } catch (err) {
    const code = toActError(err).code;
    if (code === 'task.not_found' || code === 'process.not_found') return null;
    throw err;
  }
}

/** The most entries `history` answers. */
export const TASK_HISTORY_MAX = 100;

export const tasksRouter = router({
  /**
   * What people did to a task, newest first (at most TASK_HISTORY_MAX): its audit entries —
   * answers, claims, releases, delegations, reassignments, comments (`text`), votes (`decision`,
   * their comment as `text`), refusals with their
   * codes — with the holder before (`detail.from`) and the user it went to (`detail.to`), never the
   * answers' values; and its escalations (`task.escalate`, by the step or act that escalated it,
   * `text` saying what changed).
   */
  history: allowed('read')
    .input(z.object({ pid: id, tid: id }))
    .query(async ({ ctx, input }) => {
      const [{ rows }, params] = await Promise.all([ctx.services.audit.query({ target: `${input.pid}/${input.tid}`, limit: TASK_HISTORY_MAX }), paramsOfTask(ctx.services.engine, input.pid, input.tid)]);
      const people = rows.map((e) => {
        const detail = (typeof e.detail === 'object' && e.detail !== null ? e.detail : {}) as { from?: unknown; to?: unknown; text?: unknown; decision?: unknown };
        const voted = e.action === VOTE_AUDIT_ACTION;
        const text = (e.action === COMMENT_ACTION || voted) && typeof detail.text === 'string' ? detail.text : null;
        const decision = voted && typeof detail.decision === 'string' ? detail.decision : null;
        return { id: e.id, time: e.time, actor_name: e.actor_name, action: e.action, result: e.result, from: detail.from ?? null, to: detail.to ?? null, text, decision };
      });
      // the engine's escalations of the task (its timeout rules'), among what people did
      const escalations = escalationsOf(params).map((x) => ({ id: `escalation-${x.count}`, time: x.at, actor_name: x.by, action: ESCALATE_ACTION, result: 'ok', from: null, to: x.to, text: escalationText(x), decision: null }));
      return { rows: [...people, ...escalations].sort((a, b) => b.time - a.time).slice(0, TASK_HISTORY_MAX) };
    }),
  get: allowed('read')
    .input(z.object({ pid: id, tid: id }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const task = await engine.tasks.get(input.pid, input.tid);
      const assignment = await taskAssignment(engine, input.pid, input.tid);
      return { task: shownTask(task), assignment, mayAct: mayAct(ctx.caller, assignment) };
    }),
  complete: action('complete'),
  submit: action('submit'),
  back: action('back'),
  cancel: action('cancel'),
  abort: action('abort'),
  skip: action('skip'),
  error: action('error'),
  push: action('push'),
  remove: action('remove'),
  /** Sets process variables through an open act (the spec's `set-vars` client action). */
  setVars: action('set_process_vars'),
  /** Answers an interrupt act with one of its declared outcomes: `options.outcome` names it (vocab/outcomes.ts). */
  outcome: action('outcome'),
});
