/**
 * The bulk actions' per-run calls, one entry per action of vocab/bulk-actions.ts (which holds
 * their permission and words). An entry says which runs it leaves as they are (`skips`: read
 * from the run's stored row, before the call and again after a refusal) and makes the call for
 * one run with the same checks as the single-run procedure (process-access.ts).
 *
 * A new action is one entry here, one in vocab/bulk-actions.ts and one line
 * in routers/bulk.ts; the job runner (jobs.ts) is the same for all.
 */
import type { Caller } from '../../auth/types.ts';
import type { ProcRow } from '../../runtime/read-model-types.ts';
import type { ApiServices } from '../context.ts';
import { requireMayChangeProcess } from '../process-access.ts';
import type { RunsListActionName } from '../../../vocab/bulk-actions.ts';
import { isTerminalName } from '../../../vocab/states.ts';

export interface BulkOperation {
  /** The audit entry's action (one entry for the whole bulk action). */
  audit: string;
  /** Whether the action leaves this run as it is (its result is `skipped`). */
  skips(row: ProcRow): boolean;
  /** Acts on one run (`row`: as read just before, null when it could not be read); throws the refusal (an ActError with its code). */
  apply(services: ApiServices, caller: Caller, pid: string, row: ProcRow | null): Promise<void>;
  /** How many runs it works on at once (default: the jobs' PARALLEL). */
  parallel?: number;
}

/** A run with no open incident (or one that ended) is left as it is by retry and fail. */
const withoutIncident = (row: ProcRow): boolean => isTerminalName(row.state) || (row.control?.incidents.length ?? 0) === 0;

/** Resolves every open incident of a run with `action` (engine/control.ts), oldest first. */
function resolveIncidents(action: 'retry' | 'fail'): BulkOperation['apply'] {
  return async (services, caller, pid) => {
    await requireMayChangeProcess(services.engine, caller, pid);
    const { control } = await services.engine.procs.get(pid);
    for (const incident of control.incidents) await services.engine.do({ pid, tid: '$', action, options: { tid: incident.tid } });
  };
}

export const BULK_OPERATIONS: Readonly<Record<RunsListActionName, BulkOperation>> = {
  abort: {
    audit: 'proc.bulk_abort',
    skips: (row) => isTerminalName(row.state),
    apply: async (services, caller, pid) => {
      await requireMayChangeProcess(services.engine, caller, pid);
      await services.engine.procs.abort(pid);
    },
  },
  retry: { audit: 'proc.bulk_retry', skips: withoutIncident, apply: resolveIncidents('retry') },
  fail: { audit: 'proc.bulk_fail', skips: withoutIncident, apply: resolveIncidents('fail') },
};
