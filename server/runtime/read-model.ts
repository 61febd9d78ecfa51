/**
 * The read model: what the API and the live catch-up read, answered by the runtime instead of
 * around it — the inbox (paged and filtered by who may act in the store: inbox-rows.ts), a task's
 * form (its declared outputs from the compiled tree the process runs on: resident, or the
 * snapshot's compiled model that models.ts caches), stored process rows, and the catch-up's
 * changes since a cursor. Every read first lets the queued store writes land.
 *
 * State: the inbox backfill (inbox-backfill.ts), run once before the first inbox read —
 * idle → running → done; a failed run is retried by the next read.
 */
import { ActError } from '../engine/errors.ts';
import { asAct } from '../engine/tree/node.ts';
import type { Runtime } from './runtime-types.ts';
import { backfillInbox } from './inbox-backfill.ts';
import { holdOf } from './inbox-holds.ts';
import { DEFAULT_PRIORITY, NEVER_DUE } from '../store/contract/inbox.ts';
import { createdMessagesOf } from './inbox-rows.ts';
import { procDetail, type ProcDetail } from './info.ts';
import type { ProcessReader } from './process-reader.ts';
import type { InboxAnswer, InboxRead, MessageRow, ProcRow, QueryFilter } from './read-model-types.ts';

/** Task rows read at once by processesFailingAt. */
const FAILING_PAGE = 500;

export interface TaskForm {
  detail: ProcDetail;
  /** The act's declared `outputs` in the model the process runs ({} for dynamic acts and other tasks). */
  outputs: Record<string, unknown>;
}

export class ReadModel {
  private backfill: Promise<void> | null = null;

  constructor(
    private readonly rt: Runtime,
    private readonly reader: ProcessReader,
  ) {}

  private async settled(): Promise<void> {
    await this.rt.writer.flush();
  }

  /** One page of an inbox and how many tasks it holds. */
  async inbox(read: InboxRead): Promise<InboxAnswer> {
    await this.settled();
    await (this.backfill ??= backfillInbox(this.rt.store, this.rt.writer, (uses) => this.rt.registry.isExternal(uses)).then(
      () => undefined,
      (err: unknown) => {
        this.backfill = null;
        throw err;
      },
    ));
    const { queries } = this.rt.store;
    const count = await queries.inboxCount(read);
    const rows = count > read.offset ? await queries.inboxPage(read) : [];
    const created = await createdMessagesOf(queries, rows);
    const tasks: InboxAnswer['tasks'] = [];
    for (const row of rows) {
      const m = created.get(`${row.pid}:${row.tid}`);
      if (m) tasks.push({ ...m, hold: holdOf(row), due_time: row.due_time ?? NEVER_DUE, follow_up: row.follow_up ?? NEVER_DUE, priority: row.priority ?? DEFAULT_PRIORITY, escalated: row.escalated ?? null });
    }
    return { count, tasks };
  }

  /** A process (its tasks) and the declared outputs of one of its acts, from one load. */
  async form(pid: string, tid: string): Promise<TaskForm> {
    await this.settled();
    const proc = await this.reader.loaded(pid);
    const task = proc.tasks.get(tid);
    const node = task ? proc.tree.nodes.get(task.node.id) : undefined;
    return { detail: procDetail(proc), outputs: node?.kind === 'act' ? (asAct(node).outputs ?? {}) : {} };
  }

  /** A process's stored row (any state, any instance); `process.not_found` when there is none. */
  async storedProcess(pid: string): Promise<ProcRow> {
    await this.settled();
    const row = await this.rt.store.procs.find(pid);
    if (!row) throw new ActError('process.not_found', `cannot find process '${pid}'`);
    return row;
  }

  /** Messages of a process created at or after `since`, oldest first, at most `limit` (catch-up). */
  async processMessagesSince(pid: string, since: number, limit: number): Promise<MessageRow[]> {
    await this.settled();
    return this.rt.store.queries.processMessagesSince(pid, since, limit);
  }

  /**
   * The processes with a task in `error` at node `nid` (the engine's node id, as on the run page),
   * at most `limit` of them: the runs list's failing-node filter. A task row's `node_data` is
   * `{"id":…,"level":…,"origin":…}` (rows.ts taskRow), so its JSON text starts with the id; the
   * (state, …) index narrows the read to tasks in error.
   */
  async processesFailingAt(nid: string, limit: number): Promise<string[]> {
    await this.settled();
    const filter: QueryFilter = {
      type: 'and',
      exprs: [
        { key: 'state', op: 'eq', value: 'error' },
        { key: 'node_data', op: 'match', value: `{"id":${JSON.stringify(nid)},` },
      ],
    };
    const pids = new Set<string>();
    for (let offset = 0; pids.size < limit; offset += FAILING_PAGE) {
      const page = await this.rt.store.tasks.query({ filter, offset, limit: FAILING_PAGE, order_by: [{ field: 'start_time', order: 'asc' }] });
      for (const row of page.rows) if (pids.size < limit) pids.add(row.pid);
      if (page.rows.length < FAILING_PAGE) break;
    }
    return [...pids];
  }

  /** Processes of a model that started or ended at or after `since`, at most `limit` (catch-up). */
  async modelProcessesChangedSince(mid: string, since: number, limit: number): Promise<ProcRow[]> {
    await this.settled();
    return this.rt.store.queries.modelProcessesChangedSince(mid, since, limit);
  }
}
