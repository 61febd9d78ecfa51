/**
 * Work done on every tick (spec 2.10, 3.6 with sections 0.12 and 0.15): task timeouts fire once per
 * task and rule while the task is open; unacknowledged deliveries are re-sent to their own channel
 * after a full tick interval, until the retry limit turns them into `error`.
 */
import { settleWorkerDeliveries } from './worker-jobs.ts';
import type { Runtime } from './runtime-types.ts';
import { isOpenEndHook } from './end-hooks.ts';
import { spawn } from '../engine/task-ops.ts';
import type { Message } from '../engine/messages.ts';
import { removeWorkdir } from '../engine/owner-scope.ts';
import { extraOf } from './rows.ts';
import { errorMessage } from '../engine/errors.ts';
import { isTerminalName, TERMINAL_STATES } from '../../vocab/states.ts';
import type { Task } from '../engine/task.ts';

/**
 * Whether a watched task has started: its timeout rules count from its start. A task is watched
 * from its init (and by recovery), which a code worker may keep waiting; until it has started (no
 * start time yet) nothing of it is due.
 */
function started(task: Task): boolean {
  return task.state !== 'none' && task.startTime > 0;
}

/** Earliest time a timeout rule of an open task falls due (epoch ms), or null. */
export function nextTimeoutAt(rt: Runtime): number | null {
  let best: number | null = null;
  for (const task of rt.timed) {
    if (task.terminal || !started(task)) continue;
    task.node.timeouts.forEach((rule, i) => {
      if (task.firedTimeouts.has(i) || task.firingTimeouts.has(i) || !Number.isFinite(rule.ms)) return;
      const at = task.startTime + rule.ms;
      if (best === null || at < best) best = at;
    });
  }
  return best;
}

export function checkTimeouts(rt: Runtime, now: number): number {
  let fired = 0;
  for (const task of [...rt.timed]) {
    if (task.terminal) {
      rt.timed.delete(task);
      continue;
    }
    const proc = rt.procs.get(task.pid);
    if (!proc || proc.finished) {
      rt.timed.delete(task);
      continue;
    }
    if (!started(task)) continue;
    task.node.timeouts.forEach((rule, index) => {
      if (task.firedTimeouts.has(index) || task.firingTimeouts.has(index) || !(now - task.startTime >= rule.ms)) return;
      fired++;
      // fired and its steps started in one job, so one batch: a crash cannot keep the mark alone
      task.firingTimeouts.add(index);
      rt.jobs.job(proc.pid, `timeout ${task.tid}`, () => {
        task.firingTimeouts.delete(index);
        if (task.terminal) return;
        task.firedTimeouts.add(index);
        rt.tasks.markDirty(proc, task);
        if (task.firedTimeouts.size === task.node.timeouts.length) rt.timed.delete(task);
        if (rule.head) spawn(rt.port, proc, rule.head, task, task);
      });
    });
  }
  return fired;
}

const RETRY_BATCH = 300;

export async function redeliver(rt: Runtime, now: number): Promise<number> {
  // Channels live in the engine that opened them: each instance re-sends its own deliveries.
  // (leased channels' deliveries are taken by remote workers' polls, worker-jobs.ts)
  const local = [...rt.channels.values()].filter((c) => c.ack && !c.leased).map((c) => c.id);
  if (local.length === 0) return 0;
  await rt.writer.flush();
  const { store } = rt;
  let sent = 0;
  for (const row of await store.queries.dueDeliveries(local, now - rt.config.tickMs, RETRY_BATCH)) {
    const canonical = await store.messages.find(row.msg_id);
    if (!canonical) {
      await store.deliveries.delete(row.id);
      continue;
    }
    if (row.retry_times >= rt.config.maxMessageRetryTimes) {
      await store.deliveries.update({ ...row, status: 'error', update_time: now });
      continue;
    }
    const retry = row.retry_times + 1;
    await store.deliveries.update({ ...row, retry_times: retry, update_time: now });
    const channel = rt.channels.get(row.chan_id);
    const handler = channel?.handlers.message;
    if (!handler) continue;
    const message: Message = { ...canonical, retry_times: retry, delivery_id: row.id };
    rt.dispatcher.dispatch(message.pid, () => handler(message));
    sent++;
  }
  return sent;
}

/**
 * Overflow recovery (spec 5.4): executions recorded because their lane was full are handed back
 * once they are older than two tick intervals (the memory queue had time to drain), as far as the
 * lanes have room; the rest waits for a later tick. Records of finished tasks are closed.
 */
export async function replayOverflow(rt: Runtime, now: number): Promise<number> {
  await rt.writer.flush();
  let replayed = 0;
  for (const op of await rt.store.queries.stalePendingExecs(now - 2 * rt.config.tickMs, 1000)) {
    // this engine hands its own overflow back as lanes free (Runtime.drainOverflow)
    if (rt.outbox.refused.has(op.id)) continue;
    const proc = rt.procs.get(op.pid);
    const task = proc?.tasks.get(op.tid);
    if (!proc) {
      // not resident: closed when its process is gone or ended; else it is closed when its
      // process is loaded (here or by the instance that owns it)
      const row = await rt.store.procs.find(op.pid);
      // an end-fired hook of a finished process: its job is queued here (or runs at the next boot)
      if (!row || (isTerminalName(row.state) && !(await isOpenEndHook(rt, op)))) rt.outbox.close(op);
      continue;
    }
    if (!task || task.terminal) {
      rt.outbox.close(op);
      continue;
    }
    if (!rt.jobs.queue.hasRoom(op.pid)) continue;
    rt.executions.schedule(proc, task, rt.outbox.dispatch(op));
    replayed++;
  }
  rt.batch.flush();
  return replayed;
}

/**
 * The sweeper (spec 5.6): a finished process whose deliveries have all settled (none waiting for
 * an ack, none in `error` awaiting a redo) and that ended at least `afterMs` ago is deleted with
 * all its rows, in one batch. Without `afterMs` nothing is swept (run history is kept).
 */
async function removeState(rt: Runtime, pid: string): Promise<boolean> {
  try {
    await rt.state.removeProcess(pid);
    return true;
  } catch (err) {
    rt.log.warn(`sweeper: the state values of process ${pid} could not be removed, it stays until a later tick: ${errorMessage(err)}`);
    return false;
  }
}

export async function sweepFinished(rt: Runtime, now: number, afterMs: number | undefined): Promise<number> {
  if (afterMs === undefined) return 0;
  await rt.writer.flush();
  let swept = 0;
  for (const row of await rt.store.queries.processesEndedBy(TERMINAL_STATES, now - afterMs, 200)) {
    if (rt.procs.get(row.id)?.finished === false) continue;
    // a remote worker's job of a process that ended without its answer is done with
    await settleWorkerDeliveries(rt, row.id, now);
    if (await rt.store.queries.hasUnsettledDeliveries(row.id)) continue;
    // its state values go first: when they cannot, the process stays for the next tick
    if (!(await removeState(rt, row.id))) continue;
    const root = await rt.store.tasks.find(`${row.id}:$`);
    await rt.store.batch((tx) => tx.queries.deleteProcessRows(row.id));
    // the workdir lives exactly as long as the process rows (spec 5.9)
    removeWorkdir(root ? extraOf(root).workdir : undefined);
    rt.shell.removeWorkdir(row.id);
    swept++;
  }
  return swept;
}
