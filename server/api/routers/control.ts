/**
 * Controlling a running process (issue 14; engine/control.ts): pause, resume and step over,
 * breakpoints, incidents (retry the failed act, after setting variables; or let its error go on),
 * and re-runs from a step as a new process (with the list of a process's re-runs). Every change is
 * audited, checked against the caller's role (`operate`; breakpoints also `debug`: designers set
 * them too) and, as every change of a whole process, against process-access.ts.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { id, vars } from '../limits.ts';
import { eq, toQuery } from '../paging.ts';
import { requireMayChangeProcess } from '../process-access.ts';
import { allowed, router } from '../trpc.ts';
import type { ApiServices } from '../context.ts';
import type { Caller } from '../../auth/types.ts';
import type { ControlAction } from '../../../vocab/control.ts';
import type { Vars } from '../../engine/model/types.ts';

const RERUNS_LISTED = 50;

/**
 * One control action on the root of process `pid`, audited as `proc.<action>`. Breakpoints decide
 * nothing a task's assignee would: they skip the process-access check.
 */
function control(services: ApiServices, caller: Caller, pid: string, action: ControlAction, options: Vars = {}, detail?: unknown) {
  return audited(services, caller, { action: `proc.${action}`, target: pid, detail, ids: { pid } }, async () => {
    if (action !== 'set_breakpoints') await requireMayChangeProcess(services.engine, caller, pid);
    await services.engine.do({ pid, tid: '$', action, options });
    return { pid, control: (await services.engine.procs.get(pid)).control };
  });
}

const onProcess = z.object({ pid: id });
const onIncident = z.object({ pid: id, tid: id });

export const controlRouter = router({
  /** Pauses the process: no node of it starts until it is resumed (what runs goes on to its end). */
  pause: allowed('operate')
    .input(onProcess)
    .mutation(({ ctx, input }) => control(ctx.services, ctx.caller, input.pid, 'pause')),

  resume: allowed('operate')
    .input(onProcess)
    .mutation(({ ctx, input }) => control(ctx.services, ctx.caller, input.pid, 'resume')),

  /** Runs the node the process stopped at (with all it contains) and pauses before the next one. */
  stepOver: allowed('operate')
    .input(onProcess)
    .mutation(({ ctx, input }) => control(ctx.services, ctx.caller, input.pid, 'step_over')),

  /** Replaces the process's breakpoints: a task of one of these nodes pauses it before it starts. */
  setBreakpoints: allowed('debug')
    .input(z.object({ pid: id, nodes: z.array(id).max(500) }))
    .mutation(({ ctx, input }) => control(ctx.services, ctx.caller, input.pid, 'set_breakpoints', { nodes: input.nodes }, { nodes: input.nodes })),

  /** Sets the breakpoints every new run of the model's latest version `ver` gets (at most 500 node ids; empty: none). */
  setVersionBreakpoints: allowed('debug')
    .input(z.object({ mid: id, ver: z.number().int().min(1), nodes: z.array(id).max(500) }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'model.set_breakpoints', target: input.mid, detail: { ver: input.ver, nodes: input.nodes }, ids: { mid: input.mid } }, async () => {
        const row = await ctx.services.engine.models.setBreakpoints(input.mid, input.ver, input.nodes);
        return { mid: row.id, ver: row.ver, nodes: row.breakpoints?.nodes ?? [] };
      }),
    ),

  /** The breakpoints new runs of model `mid` get (its latest version's). */
  versionBreakpoints: allowed('read')
    .input(z.object({ mid: id }))
    .query(async ({ ctx, input }) => {
      const row = await ctx.services.engine.models.get(input.mid);
      return { mid: row.id, ver: row.ver, nodes: row.breakpoints && row.breakpoints.ver === row.ver ? row.breakpoints.nodes : [] };
    }),

  /** Runs the failed act of an incident again (a new task in its place), after setting `vars` when given. */
  retry: allowed('operate')
    .input(onIncident.extend({ vars: vars.optional() }))
    .mutation(async ({ ctx, input }) => {
      const keys = Object.keys(input.vars ?? {});
      if (input.vars && keys.length > 0) await ctx.services.engine.procs.setVars(input.pid, input.vars);
      return control(ctx.services, ctx.caller, input.pid, 'retry', { tid: input.tid }, { tid: input.tid, keys });
    }),

  /** Lets the error of an incident go on, as if no incident had held it (catches above it, else the process fails). */
  fail: allowed('operate')
    .input(onIncident)
    .mutation(({ ctx, input }) => control(ctx.services, ctx.caller, input.pid, 'fail', { tid: input.tid }, { tid: input.tid })),

  /** Starts a new process that re-runs `pid` from its step `from` (same model version, same inputs); linked both ways. */
  rerun: allowed('operate')
    .input(z.object({ pid: id, from: id }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'proc.rerun', target: input.pid, detail: { from: input.from }, ids: { pid: input.pid } }, async () => {
        await requireMayChangeProcess(ctx.services.engine, ctx.caller, input.pid);
        const proc = await ctx.services.engine.procs.rerun(input.pid, input.from, { owner: { id: ctx.caller.userId, roles: [...ctx.caller.roles] } });
        return { pid: proc.pid, rerunOf: input.pid, from: input.from };
      }),
    ),

  /** The processes that re-run `pid` (newest first). */
  reruns: allowed('read')
    .input(onProcess)
    .query(async ({ ctx, input }) => {
      const page = await ctx.services.engine.procs.list(toQuery([eq('rerun_of', input.pid)], { offset: 0, limit: RERUNS_LISTED }, { field: 'start_time', order: 'desc' }));
      return { count: page.count, rows: page.rows.map((r) => ({ pid: r.id, state: r.state, start_time: r.start_time, end_time: r.end_time, from: r.control?.rerunOf?.from ?? null })) };
    }),
});
