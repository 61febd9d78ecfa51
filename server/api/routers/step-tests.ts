/**
 * Step tests (docs/step-tests.md), designers only: `run` one step or act of a model source with
 * given inputs and answers on a throw-away engine (nothing is deployed); `runAll` the source's
 * saved cases (`tests:`); `pins`: the data of that node's tasks in the model's recent runs, to pin
 * as a test's inputs. Runs share the server's step-test slots (step-test-gate.ts) and are audited.
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import { runInputFields, runOneNode } from '../../runtime/step-tests/index.ts';
import { STEP_TEST_LIMITS } from '../../../vocab/step-tests.ts';
import { audited } from '../audit.ts';
import { id, vars, yamlSource } from '../limits.ts';
import { eq, toQuery } from '../paging.ts';
import { pinnedVars } from '../pinned-vars.ts';
import { inStepTestSlot, runSavedCases, sandboxOptions } from '../step-test-gate.ts';
import { allowed, router } from '../trpc.ts';

const limitMs = z.number().int().min(100).max(STEP_TEST_LIMITS.maxMs).optional();

export const stepTestsRouter = router({
  run: allowed('design')
    .input(z.object({ source: yamlSource, ...runInputFields, inputs: vars.optional(), limitMs }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'steptest.run', target: input.node, detail: { bytes: input.source.length, node: input.node } }, () =>
        inStepTestSlot(async () => runOneNode(input.source, input, { ...(await sandboxOptions(ctx.services)), limitMs: input.limitMs })),
      ),
    ),

  runAll: allowed('design')
    .input(z.object({ source: yamlSource }))
    .mutation(({ ctx, input }) =>
      audited(ctx.services, ctx.caller, { action: 'steptest.run_all', target: '*', detail: { bytes: input.source.length } }, async () => ({
        verdicts: await runSavedCases(ctx.services, input.source),
      })),
    ),

  /** The node's tasks in the model's latest runs (newest first), each with the variables it saw. */
  pins: allowed('design')
    .input(z.object({ mid: id, node: id, runs: z.number().int().min(1).max(20).default(10) }))
    .query(async ({ ctx, input }) => {
      const { engine } = ctx.services;
      const page = await engine.procs.list(toQuery([eq('mid', input.mid)], { offset: 0, limit: input.runs }, { field: 'start_time', order: 'desc' }));
      const pins = [];
      for (const row of page.rows) {
        const tasks = await engine.tasks.list(row.id).catch((err: unknown) => {
          if (ActError.is(err) && err.code === 'process.not_found') return [];
          throw err;
        });
        for (const task of tasks) {
          if (task.nid !== input.node && task.key !== input.node) continue;
          pins.push({ pid: task.pid, tid: task.tid, state: task.state, start_time: task.start_time, end_time: task.end_time, vars: pinnedVars(tasks, task), outputs: task.outputs });
        }
      }
      return { pins };
    }),
});
