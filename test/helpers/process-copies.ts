/**
 * Many processes fast, for benchmarks and scale tests: the rows one real process wrote (its procs
 * row, tasks, messages and inbox rows) copied under new pids in store batches, instead of running the engine
 * once per process. Copies are unowned (any instance may claim them) and start one ms apart.
 */
import type { InboxRow, MessageRow, ProcRow, Store, TaskRow } from '../../server/store/contract/types.ts';

export interface ProcessRows {
  proc: ProcRow;
  tasks: TaskRow[];
  messages: MessageRow[];
  inbox: InboxRow[];
}

const ROWS_PER_BATCH = 500;

/** The rows of one process, as the engine wrote them. */
export async function rowsOf(store: Store, pid: string): Promise<ProcessRows> {
  const byPid = { filter: { type: 'and' as const, exprs: [{ key: 'pid', op: 'eq' as const, value: pid }] } };
  const proc = await store.procs.find(pid);
  if (!proc) throw new Error(`no row for process ${pid}`);
  return { proc, tasks: (await store.tasks.query(byPid)).rows, messages: (await store.messages.query(byPid)).rows, inbox: (await store.inbox.query(byPid)).rows };
}

/**
 * Writes `count` copies of `rows` with pids `<prefix><n>`; `finished`: as completed processes
 * (history, without inbox rows), else in the states of the original.
 */
export async function copyProcess(store: Store, rows: ProcessRows, count: number, prefix: string, finished = false): Promise<string[]> {
  const pids: string[] = [];
  const perBatch = Math.max(1, Math.floor(ROWS_PER_BATCH / (1 + rows.tasks.length + rows.messages.length + rows.inbox.length)));
  for (let i = 0; i < count; i += perBatch) {
    await store.batch(async (tx) => {
      for (let n = i; n < Math.min(count, i + perBatch); n++) {
        const pid = `${prefix}${n}`;
        const t = rows.proc.timestamp + n;
        pids.push(pid);
        await tx.procs.upsert({ ...rows.proc, id: pid, state: finished ? 'completed' : rows.proc.state, owner: null, timestamp: t, start_time: t });
        for (const task of rows.tasks) {
          await tx.tasks.upsert({ ...task, id: `${pid}:${task.tid}`, pid, state: finished ? 'completed' : task.state, start_time: task.start_time + n });
        }
        for (const m of rows.messages) await tx.messages.upsert({ ...m, id: `${pid}-${m.id}`, pid, start_time: m.start_time + n });
        if (finished) continue;
        for (const r of rows.inbox) await tx.inbox.upsert({ ...r, id: `${pid}:${r.tid}:${r.principal}`, pid, start_time: r.start_time + n });
      }
    });
  }
  return pids;
}
