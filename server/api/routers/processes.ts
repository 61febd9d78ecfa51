/**
 * Processes: start (optionally idempotent: start-key.ts), list (filters: runs-filter.ts — also `stuck`: processes nothing can move, `search`: runs-search.ts, `failingNode` —, paging, sort), get (task tree, variables, messages, timeline),
 * summary (every task's state without variables, for live pages), model (the source the process
 * runs and its node ids by YAML path), graph (the graph of that model as the studio draws it, with
 * the node ids: the run page's), abort, set-vars (both only for who may answer every open
 * task of the process: process-access.ts).
 * Reads return a `cursor` (server time before the read) to join the live room with.
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { audited } from '../audit.ts';
import { snapshotGraph } from '../model-graph.ts';
import { snapshotNodeIds } from '../model-node-ids.ts';
import { id, vars } from '../limits.ts';
import { eq, page, pageOf, sortBy, toQuery } from '../paging.ts';
import { requireMayChangeProcess } from '../process-access.ts';
import { idempotencyKey, startKeyOf } from '../start-key.ts';
import { procListRow, taskTree, timeline } from '../process-views.ts';
import { runsFilterExprs, runsFilterFields } from '../runs-filter.ts';
import { SHOWN_VALUE_BYTES, shownTask, shownVars, variablePage } from '../large-values.ts';
import { allowed, router } from '../trpc.ts';

const MESSAGES_IN_DETAIL = 500;

export const processesRouter = router({
  /** With an idempotency key (input or `Idempotency-Key` header) a repeat answers the first process, `repeated: true`. */
  start: allowed('operate')
    .input(z.object({ mid: id, inputs: vars.default({}), idempotencyKey }))
    .mutation(({ ctx, input }) => {
      const key = startKeyOf(ctx, input.idempotencyKey);
      return audited(ctx.services, ctx.caller, { action: 'proc.start', target: input.mid, detail: { inputs: input.inputs, idempotencyKey: key }, ids: { mid: input.mid } }, () =>
        ctx.services.engine.procs.start(input.mid, input.inputs, { owner: { id: ctx.caller.userId, roles: [...ctx.caller.roles] }, idempotencyKey: key }),
      );
    }),

  list: allowed('read')
    .input(
      z
        .object({
          ...page,
          ...runsFilterFields,
          sort: sortBy(['start_time', 'end_time', 'state', 'name', 'mid']),
        })
        .default({ offset: 0, limit: 50 }),
    )
    .query(async ({ ctx, input }) => {
      const cursor = Date.now();
      const filters = await runsFilterExprs(ctx.services.engine, input);
      const data = await ctx.services.engine.procs.list(toQuery(filters, input, input.sort ?? { field: 'start_time', order: 'desc' }));
      return { ...pageOf({ count: data.count, rows: data.rows.map(procListRow) }, input), cursor };
    }),

  get: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const cursor = Date.now();
      const detail = await engine.procs.get(input.pid);
      const messages = await engine.messages.list(toQuery([eq('pid', input.pid)], { offset: 0, limit: MESSAGES_IN_DETAIL }, { field: 'create_time', order: 'asc' }));
      const { tasks: stored, ...rest } = detail;
      const tasks = stored.map(shownTask);
      const process = { ...rest, outputs: shownVars(rest.outputs), env: shownVars(rest.env) };
      return {
        process,
        tasks,
        tree: taskTree(tasks),
        variables: tasks.find((t) => t.tid === '$')?.data ?? {},
        messages: { count: messages.count, rows: messages.rows.map((m) => ({ ...m, inputs: shownVars(m.inputs), outputs: shownVars(m.outputs) })) },
        timeline: timeline(messages.rows),
        cursor,
      };
    }),

  /** One page of the JSON text of a task's variable (reads cut values above 64 KiB; see large-values.ts). */
  variable: allowed('read')
    .input(
      z.object({
        pid: id,
        tid: id,
        field: z.enum(['data', 'inputs', 'outputs']).default('data'),
        name: z.string().min(1).max(200),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(SHOWN_VALUE_BYTES).default(SHOWN_VALUE_BYTES),
      }),
    )
    .query(async ({ ctx, input }) => {
      const task = await ctx.services.engine.tasks.get(input.pid, input.tid);
      const vars = task[input.field] as Record<string, unknown>;
      if (!Object.hasOwn(vars, input.name)) throw new ActError('input.invalid', `task '${input.tid}' has no ${input.field} variable '${input.name}'`);
      return variablePage(vars[input.name], input.offset, input.limit);
    }),

  /**
   * The process, every task without its variables (the fields of a live task event, plus `err`)
   * and its first messages without their values: what a live run page draws, a fraction of `get`'s
   * size on big runs. A task's variables come from `tasks.get`.
   */
  summary: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const cursor = Date.now();
      const { tasks, ...process } = await engine.procs.summary(input.pid);
      const messages = await engine.messages.list(toQuery([eq('pid', input.pid)], { offset: 0, limit: MESSAGES_IN_DETAIL }, { field: 'create_time', order: 'asc' }));
      const { outputs: _outputs, env: _env, ...head } = process;
      return {
        process: head,
        // a live task event's fields (live/payloads.ts `taskEvent`) and `err`, as the engine gives them
        tasks,
        messages: { count: messages.count, rows: messages.rows.map((m) => ({ id: m.id, tid: m.tid, nid: m.nid, key: m.key, name: m.name, type: m.type, state: m.state, create_time: m.create_time })) },
        cursor,
      };
    }),

  /** The model snapshot the process runs (its source and version) and the node ids of its tasks by YAML path. */
  model: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const row = await ctx.services.engine.reads.storedProcess(input.pid);
      return { pid: row.id, mid: row.mid, ver: row.model_ver, source: row.model, nodes: snapshotNodeIds(ctx.services.engine, row) };
    }),

  /**
   * The graph of the model snapshot the process runs, as the studio draws it (nodes without source
   * ranges, edges), drawn once per model version (model-graph.ts), and the node ids of its tasks by
   * YAML path: what the run page draws, without parsing the model in the browser.
   */
  graph: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const row = await engine.reads.storedProcess(input.pid);
      return { pid: row.id, mid: row.mid, ver: row.model_ver, graph: snapshotGraph(engine, row), nodes: snapshotNodeIds(engine, row) };
    }),

  /** A cheap read of where a process is (for clients that wait for its end). */
  state: allowed('read')
    .input(z.object({ pid: id }))
    .query(async ({ ctx, input }) => {
      const row = await ctx.services.engine.reads.storedProcess(input.pid);
      return { pid: row.id, mid: row.mid, state: row.state, err: row.err, start_time: row.start_time, end_time: row.end_time };
    }),

  abort: allowed('operate')
    .input(z.object({ pid: id }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'proc.abort', target: input.pid, ids: { pid: input.pid } }, async () => {
        await requireMayChangeProcess(ctx.services.engine, ctx.caller, input.pid);
        await ctx.services.engine.procs.abort(input.pid);
        return { pid: input.pid };
      }),
    ),

  setVars: allowed('operate')
    .input(z.object({ pid: id, vars }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'proc.set_vars', target: input.pid, detail: { keys: Object.keys(input.vars) }, ids: { pid: input.pid } }, async () => {
        await requireMayChangeProcess(ctx.services.engine, ctx.caller, input.pid);
        await ctx.services.engine.procs.setVars(input.pid, input.vars);
        return { pid: input.pid };
      }),
    ),
});
