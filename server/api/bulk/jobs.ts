/**
 * Bulk action jobs: a bulk action's runs are worked through in the background, in chunks of
 * CHUNK runs, PARALLEL at a time, yielding to the event loop between chunks so the server keeps
 * serving. Each run gets its operation's call (operations.ts) and a result (done, skipped,
 * refused with a code). A refusal with `engine.busy` (the engine's backpressure: a saturated
 * store writer, a full lane) is not a result: the run is tried again after a growing pause, for
 * up to BUSY_PATIENCE_MS. When every run has a result the job writes ONE audit entry naming every
 * run and the counts.
 *
 * State of a job: running → done (every run has a result, the audit entry is written). Jobs live
 * in the memory of the server that took the call (`bulk.status` asks that server), an hour past
 * their end; at most MAX_RUNNING run at once per server.
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '../../auth/types.ts';
import { ActError } from '../../engine/errors.ts';
import { recordAudit } from '../audit.ts';
import type { ApiServices } from '../context.ts';
import { toActError } from '../errors.ts';
import { BULK_OPERATIONS, type BulkOperation } from './operations.ts';
import type { BulkSelection } from './selection.ts';
import type { ProcRow } from '../../runtime/read-model-types.ts';
import type { BulkActionName, BulkOutcome, BulkRunResult, RunsListActionName } from '../../../vocab/bulk-actions.ts';

const CHUNK = 50;
const PARALLEL = 8;
const BUSY_FIRST_PAUSE_MS = 50;
const BUSY_MAX_PAUSE_MS = 2_000;
const BUSY_PATIENCE_MS = 5 * 60_000;
const KEEP_ENDED_MS = 60 * 60_000;
const MAX_RUNNING = 5;
/** The audit entry holds every run id and each refusal's code: up to 10,000 runs. */
const AUDIT_DETAIL_BYTES = 1024 * 1024;
/** Most results one status read returns. */
export const RESULTS_PAGE = 1_000;

export interface BulkJob {
  id: string;
  action: BulkActionName;
  /** Who started it (`Caller.userId`): only they and admins read it. */
  owner: string;
  state: 'running' | 'done';
  total: number;
  results: BulkRunResult[];
  counts: Record<BulkOutcome, number>;
  /** Times a run was refused with engine.busy and tried again. */
  busyRetries: number;
  started: number;
  ended: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const isBusy = (err: unknown) => ActError.is(err) && err.code === 'engine.busy';

/** Runs `call` until the engine accepts it: an engine.busy refusal waits and tries again (bounded). */
async function untilAccepted(job: BulkJob, call: () => Promise<void>): Promise<void> {
  const giveUp = Date.now() + BUSY_PATIENCE_MS;
  for (let pause = BUSY_FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, BUSY_MAX_PAUSE_MS)) {
    try {
      return await call();
    } catch (err) {
      if (!isBusy(err) || Date.now() + pause > giveUp) throw err;
      job.busyRetries++;
      await sleep(pause);
    }
  }
}

/** The run's stored row, or null when it cannot be read. */
const storedRow = (services: ApiServices, pid: string): Promise<ProcRow | null> => services.engine.reads.storedProcess(pid).catch(() => null);

/** Whether the operation leaves the run as it is now (its stored row); false when it cannot be read. */
async function skipsNow(services: ApiServices, op: BulkOperation, pid: string): Promise<boolean> {
  const row = await storedRow(services, pid);
  return row !== null && op.skips(row);
}

async function runOne(job: BulkJob, services: ApiServices, caller: Caller, op: BulkOperation, pid: string): Promise<BulkRunResult> {
  try {
    const row = await storedRow(services, pid);
    if (row !== null && op.skips(row)) return { pid, outcome: 'skipped' };
    await untilAccepted(job, () => op.apply(services, caller, pid, row));
    return { pid, outcome: 'done' };
  } catch (err) {
    // the run may have ended between the read and the call (an abort of a run that just completed)
    if (await skipsNow(services, op, pid)) return { pid, outcome: 'skipped' };
    const refusal = toActError(err);
    return { pid, outcome: 'refused', code: refusal.code, message: refusal.message };
  }
}

/** Works `items` through `work`, at most `parallel` at once. */
async function inParallel<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}

export class BulkJobs {
  private readonly jobs = new Map<string, BulkJob>();

  /**
   * Starts a job over `pids` (already selected and bounded) with the action's operation (`op`: the
   * one a plan made — a migration's —, or another in tests); returns at once.
   */
  start(services: ApiServices, caller: Caller, action: BulkActionName, selection: BulkSelection, pids: readonly string[], op: BulkOperation | undefined = BULK_OPERATIONS[action as RunsListActionName]): BulkJob {
    if (!op) throw new ActError('internal', `bulk action '${action}' needs its plan's operation`);
    this.forgetOld();
    const running = [...this.jobs.values()].filter((j) => j.state === 'running').length;
    if (running >= MAX_RUNNING) {
      throw new ActError('engine.busy', `${running} bulk actions are running on this server; start this one when one of them has ended`, { retryable: true, running });
    }
    const job: BulkJob = {
      id: randomUUID(),
      action,
      owner: caller.userId,
      state: 'running',
      total: pids.length,
      results: [],
      counts: { done: 0, skipped: 0, refused: 0 },
      busyRetries: 0,
      started: Date.now(),
      ended: 0,
    };
    this.jobs.set(job.id, job);
    void this.run(job, op, services, caller, selection, pids).catch((err: unknown) => services.log.error({ err: String(err), job: job.id }, 'bulk action failed'));
    return job;
  }

  /** The job, for its owner or an admin; `bulk.not_found` otherwise. */
  get(id: string, caller: Caller, mayReadAll: boolean): BulkJob {
    const job = this.jobs.get(id);
    if (!job || (job.owner !== caller.userId && !mayReadAll)) throw new ActError('bulk.not_found', `there is no bulk action '${id}' of yours on this server (a finished one is kept an hour)`);
    return job;
  }

  private async run(job: BulkJob, op: BulkOperation, services: ApiServices, caller: Caller, selection: BulkSelection, pids: readonly string[]): Promise<void> {
    for (let i = 0; i < pids.length; i += CHUNK) {
      await inParallel(pids.slice(i, i + CHUNK), op.parallel ?? PARALLEL, async (pid) => {
        const result = await runOne(job, services, caller, op, pid);
        job.results.push(result);
        job.counts[result.outcome]++;
      });
      await nextTurn();
    }
    const refused = job.results.filter((r) => r.outcome === 'refused').map((r) => ({ pid: r.pid, code: r.code }));
    await recordAudit(
      services,
      caller,
      {
        action: op.audit,
        target: `bulk:${job.id}`,
        detail: { job: job.id, selection: 'filter' in selection ? { filter: selection.filter } : 'pids', total: job.total, counts: job.counts, pids, refused },
        detailBytes: AUDIT_DETAIL_BYTES,
      },
      'ok',
    );
    job.ended = Date.now();
    job.state = 'done';
  }

  private forgetOld(): void {
    const before = Date.now() - KEEP_ENDED_MS;
    for (const [id, job] of this.jobs) if (job.state === 'done' && job.ended < before) this.jobs.delete(id);
  }
}

const registries = new WeakMap<ApiServices, BulkJobs>();

/** The bulk jobs of one server (its services). */
export function bulkJobsOf(services: ApiServices): BulkJobs {
  let jobs = registries.get(services);
  if (!jobs) registries.set(services, (jobs = new BulkJobs()));
  return jobs;
}
