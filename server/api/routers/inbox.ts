/**
 * The caller's inbox (operators and admins): `list` — interrupt tasks they may act on (oldest
 * first, or `newestFirst`; `withSteps` adds each task's step, named by its `created` message); `form` —
 * what one task asks (declared outputs from the compiled model the process runs, the steps it may
 * be sent back to, who may answer, the run's start inputs and the variables visible at the task,
 * bounded: task-context.ts); `approvals` — the caller's own completed acts that can still be
 * withdrawn (`cancel`) because the following step has not acted yet, each with what it approved
 * (the act's params and its answer, bounded as the context is).
 */
import { z } from 'zod';
import type { Engine } from '../../runtime/engine.ts';
import type { ProcDetail, TaskInfo } from '../../runtime/info.ts';
import { assignmentOf, mayAct } from '../inbox-access.ts';
import { delegationMode } from '../claims.ts';
import { allows } from '../policy.ts';
import { INBOX_VIEWS, inboxOf, stepRef, type StepRef } from '../inbox-query.ts';
import { claimProcedures } from './inbox-claims.ts';
import { commentProcedures } from './inbox-comments.ts';
import { decideManyProcedures } from './inbox-decide-many.ts';
import { voteProcedures } from './inbox-votes.ts';
import { callerAsVoter, taskVotes, withVotes } from '../votes.ts';
import { id } from '../limits.ts';
import { page } from '../paging.ts';
import { boundedParams, boundedVars, taskContext } from '../task-context.ts';
import { isTerminalName } from '../../../vocab/states.ts';
import { allowed, router } from '../trpc.ts';

/** How many of the caller's recent approvals `approvals` looks at. */
export const APPROVALS_SCAN = 30;

const stepOf = (t: TaskInfo): StepRef => stepRef(t.tid, t.nid, t.name);

/** The step a task belongs to (its nearest step ancestor). */
export function enclosingStep(tasks: Map<string, TaskInfo>, task: TaskInfo): TaskInfo | null {
  for (let t = task.parent ? tasks.get(task.parent) : undefined; t; t = t.parent ? tasks.get(t.parent) : undefined) if (t.kind === 'step') return t;
  return null;
}

/** The steps visited before `task` on its path (walking `prev` links, as `back` does), nearest first, each step once. */
export function earlierSteps(tasks: Map<string, TaskInfo>, task: TaskInfo): StepRef[] {
  const own = enclosingStep(tasks, task);
  const seen = new Set<string>(own ? [own.nid] : []);
  const steps: StepRef[] = [];
  for (let t = task.prev ? tasks.get(task.prev) : undefined; t; t = t.prev ? tasks.get(t.prev) : undefined) {
    if (t.kind !== 'step' || seen.has(t.nid)) continue;
    seen.add(t.nid);
    steps.push(stepOf(t));
  }
  return steps;
}

/** The steps that follow `step` directly (the ones a `cancel` of its act would reset). */
export function followingSteps(tasks: Iterable<TaskInfo>, step: TaskInfo): TaskInfo[] {
  return [...tasks].filter((t) => t.kind === 'step' && t.prev === step.tid);
}

const taskMap = (detail: ProcDetail) => new Map(detail.tasks.map((t) => [t.tid, t]));

async function loadTasks(engine: Engine, pid: string) {
  const detail = await engine.procs.get(pid);
  return { detail, tasks: taskMap(detail) };
}

export const inboxRouter = router({
  ...claimProcedures,
  ...commentProcedures,
  ...decideManyProcedures,
  ...voteProcedures,
  list: allowed('operate')
    .input(
      z
        .object({
          ...page,
          mid: z.string().max(200).optional(),
          view: z.enum(INBOX_VIEWS).optional(),
          overdue: z.boolean().optional(),
          order: z.enum(['start', 'due', 'priority']).optional(),
          newestFirst: z.boolean().optional(),
          withSteps: z.boolean().optional(),
        })
        .default({ offset: 0, limit: 50 }),
    )
    .query(async ({ ctx, input }) => {
      const cursor = Date.now();
      const { mid, view, overdue, order, offset, limit, newestFirst } = input;
      const { count, items } = await inboxOf(ctx.services.engine, ctx.caller, { mid, view, overdue, order, offset, limit, newestFirst });
      // a task decided by votes shows where they stand ("2 of 3 approved")
      const shown = await withVotes(ctx.services.engine, items);
      return { count, offset: input.offset, limit: input.limit, rows: input.withSteps ? shown : shown.map(({ step: _step, ...row }) => row), cursor };
    }),

  /** One task's form: what it asks, its declared outputs, where it may be sent back, and whether it is still open. */
  form: allowed('operate')
    .input(z.object({ pid: id, tid: id }))
    .query(async ({ ctx, input }) => {
      const { detail, outputs } = await ctx.services.engine.reads.form(input.pid, input.tid);
      const tasks = taskMap(detail);
      const task = tasks.get(input.tid);
      if (!task) return { found: false as const, pid: input.pid, tid: input.tid };
      const assignment = assignmentOf(task.params);
      const hold = task.state === 'interrupted' ? ((await ctx.services.engine.inboxHolds.get(task.pid, task.tid)) ?? null) : null;
      const step = enclosingStep(tasks, task);
      return {
        found: true as const,
        pid: task.pid,
        tid: task.tid,
        nid: task.nid,
        key: task.key,
        name: task.name,
        state: task.state,
        open: task.state === 'interrupted',
        params: task.params,
        outputs,
        step: step ? stepOf(step) : null,
        backTo: earlierSteps(tasks, task),
        process: { pid: detail.pid, mid: detail.mid, name: detail.name, state: detail.state },
        assignment,
        hold,
        delegation: delegationMode(task.params),
        // a held task is answered by its holder (admins pass), a free one by those the act names
        mayAct: hold?.holder ? hold.holder === ctx.caller.name || allows(ctx.caller, 'override') : mayAct(ctx.caller, assignment),
        /** The caller may answer the task were it free (so may claim it). */
        candidate: mayAct(ctx.caller, assignment),
        context: taskContext(tasks, task),
        /** Where the votes stand, for a task decided by them (vocab/quorum.ts); null otherwise. */
        votes: taskVotes(task),
        /** For a task decided by votes: whether the caller may vote on it (having voted or not), or is its excluded requester. */
        ...callerAsVoter(ctx.caller, task.params, detail.owner),
        start_time: task.start_time,
        end_time: task.end_time,
      };
    }),

  /** The caller's own completed acts (newest first) that can still be withdrawn with `tasks.cancel`, with what they approved. */
  approvals: allowed('operate')
    .input(z.object({}).default({}))
    .query(async ({ ctx }) => {
      const { engine, audit } = ctx.services;
      const entries = await audit.query({ actor: ctx.caller.userId, action: 'task.complete', limit: APPROVALS_SCAN });
      const targets = [...new Set(entries.rows.filter((e) => e.result === 'ok').map((e) => e.target))];
      const rows = [];
      for (const target of targets) {
        const [pid, tid] = target.split('/');
        const loaded = await loadTasks(engine, pid).catch(() => null);
        if (!loaded || isTerminalName(loaded.detail.state)) continue;
        const task = loaded.tasks.get(tid);
        const step = task && enclosingStep(loaded.tasks, task);
        if (!task || !step || task.state !== 'completed' || step.state !== 'completed') continue;
        const next = followingSteps(loaded.tasks.values(), step);
        if (next.length === 0 || next.some((t) => isTerminalName(t.state))) continue;
        rows.push({ pid, tid, key: task.key, name: task.name, model_name: loaded.detail.name, step: stepOf(step), next: next.map(stepOf), end_time: task.end_time, params: boundedParams(task.params), answer: boundedVars(task.outputs) });
      }
      return { count: rows.length, rows };
    }),
});
