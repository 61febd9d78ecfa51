/**
 * Bulk decisions in the inbox (issue: the operator inbox for real teams, item 6): `decideMany`
 * answers up to DECIDE_MANY_MAX selected tasks with one decision — approve (`complete`), reject
 * (`error` with an ecode) or a declared outcome — each checked, audited and applied on its own as
 * its single task action would be (tasks.ts), a few at a time. A task answered elsewhere meanwhile
 * is refused by the engine and reported with its code, never overwritten; one task's refusal does
 * not stop the others. Answers with one result per task, in the order given.
 */
import { z } from 'zod';
import { audited } from '../audit.ts';
import { Claims } from '../claims.ts';
import type { ApiServices } from '../context.ts';
import { toActError } from '../errors.ts';
import { id, vars } from '../limits.ts';
import { allowed } from '../trpc.ts';
import type { Caller } from '../../auth/types.ts';

/** The most tasks one call decides. */
export const DECIDE_MANY_MAX = 500;
/** Tasks decided at once (each waits for its own commit; more share the store writer's transactions). */
const IN_FLIGHT = 16;

const DECISIONS = ['complete', 'error', 'outcome'] as const;
type Decision = (typeof DECISIONS)[number];

export interface DecideResult {
  pid: string;
  tid: string;
  outcome: 'done' | 'refused';
  code?: string;
  message?: string;
}

async function decideOne(services: ApiServices, caller: Caller, task: { pid: string; tid: string }, action: Decision, options: Record<string, unknown>): Promise<DecideResult> {
  try {
    await audited(services, caller, { action: `task.${action}`, target: `${task.pid}/${task.tid}`, detail: { options, bulk: true }, ids: task }, async () => {
      await new Claims(services.engine).requireMayAnswer(caller, task.pid, task.tid);
      await services.engine.do({ pid: task.pid, tid: task.tid, action, options });
    });
    return { ...task, outcome: 'done' };
  } catch (err) {
    const e = toActError(err);
    return { ...task, outcome: 'refused', code: e.code, message: e.message };
  }
}

export const decideManyProcedures = {
  /** One decision for many tasks; one result each (refusals with their codes). */
  decideMany: allowed('operate')
    .input(z.object({ tasks: z.array(z.object({ pid: id, tid: id })).min(1).max(DECIDE_MANY_MAX), action: z.enum(DECISIONS), options: vars.default({}) }))
    .mutation(async ({ ctx, input }) => {
      const results: DecideResult[] = new Array(input.tasks.length);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < input.tasks.length; i = next++) results[i] = await decideOne(ctx.services, ctx.caller, input.tasks[i], input.action, input.options);
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, input.tasks.length) }, worker));
      const done = results.filter((r) => r.outcome === 'done').length;
      return { done, refused: results.length - done, results };
    }),
};
