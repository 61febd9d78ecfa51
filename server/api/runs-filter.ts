/**
 * The runs list's filter, one definition for `processes.list` and the bulk actions' selection
 * (routers/bulk.ts): state, model, model version, started-time range, stuck, ended on an outcome,
 * the search (runs-search.ts) and the failing node — runs with a task in `error` at that node
 * (the engine's node id, as the run page names it; at most MAX_FAILING_RUNS runs, the oldest
 * errors first).
 */
import { z } from 'zod';
import type { Engine } from '../runtime/engine.ts';
import type { QueryExpr, QueryFilter } from '../runtime/read-model-types.ts';
import { id } from './limits.ts';
import { eq } from './paging.ts';
import { runsSearch, runsSearchFilter } from './runs-search.ts';
import { MAX_BULK_RUNS } from '../../vocab/bulk-actions.ts';

/** Most runs the failing-node filter names: as many as one bulk action takes. */
const MAX_FAILING_RUNS = MAX_BULK_RUNS;

export const runsFilterFields = {
  state: z.string().max(40).optional(),
  mid: id.optional(),
  /** The model version the runs run (with `mid`, one deployed version of one model). */
  ver: z.number().int().min(1).optional(),
  from: z.number().int().min(0).optional(),
  to: z.number().int().min(0).optional(),
  /** true: only processes the stuck-process detector marked; false: only the others. */
  stuck: z.boolean().optional(),
  /** true: only runs that ended on a declared outcome (engine finish.ts endOnOutcome); false: only the others. */
  outcome: z.boolean().optional(),
  /** A run id or its prefix, a business key (the start's key) or a value of the start inputs (runs-search.ts). */
  search: runsSearch,
  /** Only runs with a task in error at this node (its engine node id). */
  failingNode: id.optional(),
};

export const runsFilter = z.object(runsFilterFields);
export type RunsFilter = z.infer<typeof runsFilter>;

/** The store filters of a runs filter (ANDed by toQuery); reads the failing node's runs first. */
export async function runsFilterExprs(engine: Engine, input: RunsFilter): Promise<Array<QueryExpr | QueryFilter | null | undefined | false>> {
  const failing = input.failingNode === undefined ? undefined : await engine.reads.processesFailingAt(input.failingNode, MAX_FAILING_RUNS);
  return [
    eq('state', input.state),
    eq('mid', input.mid),
    eq('model_ver', input.ver),
    input.from !== undefined && { key: 'start_time', op: 'ge' as const, value: input.from },
    input.to !== undefined && { key: 'start_time', op: 'le' as const, value: input.to },
    input.stuck !== undefined && { key: 'stuck_since', op: input.stuck ? ('gt' as const) : ('eq' as const), value: 0 },
    input.outcome !== undefined && { key: 'outcome', op: input.outcome ? ('ne' as const) : ('eq' as const), value: null },
    runsSearchFilter(input.search),
    failing && { type: 'or', exprs: failing.map((pid) => ({ key: 'id', op: 'eq' as const, value: pid })) },
  ];
}
