/**
 * Which runs a bulk action takes: either the runs list's filter (runs-filter.ts; every run it
 * matches) or an explicit list of run ids (picked rows). At most MAX_BULK_RUNS: a filter matching
 * more is refused with `bulk.too_many` before anything is done. The filter's runs are read once,
 * up front (pages of ids, oldest first), so acting on them cannot shift what is selected.
 */
import { z } from 'zod';
import { ActError } from '../../engine/errors.ts';
import type { Engine } from '../../runtime/engine.ts';
import { id } from '../limits.ts';
import { toQuery } from '../paging.ts';
import { runsFilter, runsFilterExprs } from '../runs-filter.ts';
import { MAX_BULK_RUNS } from '../../../vocab/bulk-actions.ts';

const READ_PAGE = 500;

export const bulkSelection = z.union([
  z.object({ filter: runsFilter }).strict(),
  // bounded by the request's size, and to MAX_BULK_RUNS by selectedPids (bulk.too_many, like a filter)
  z.object({ pids: z.array(id).min(1) }).strict(),
]);
export type BulkSelection = z.infer<typeof bulkSelection>;

function requireAtMostMax(count: number, what: string): void {
  if (count <= MAX_BULK_RUNS) return;
  throw new ActError('bulk.too_many', `${what} ${count} runs, more than the ${MAX_BULK_RUNS} one bulk action takes; narrow it (a model, a version, a time range)`, {
    count,
    max: MAX_BULK_RUNS,
  });
}

/** The run ids of a selection, each once. */
export async function selectedPids(engine: Engine, selection: BulkSelection): Promise<string[]> {
  if ('pids' in selection) {
    const pids = [...new Set(selection.pids)];
    requireAtMostMax(pids.length, 'the list names');
    return pids;
  }
  const filters = await runsFilterExprs(engine, selection.filter);
  const order = { field: 'start_time', order: 'asc' as const };
  const first = await engine.procs.list(toQuery(filters, { offset: 0, limit: READ_PAGE }, order));
  requireAtMostMax(first.count, 'the filter matches');
  const pids = new Set(first.rows.map((row) => row.id));
  for (let offset = READ_PAGE; offset < first.count; offset += READ_PAGE) {
    const page = await engine.procs.list(toQuery(filters, { offset, limit: READ_PAGE }, order));
    for (const row of page.rows) pids.add(row.id);
    if (page.rows.length < READ_PAGE) break;
  }
  return [...pids];
}
