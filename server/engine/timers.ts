/**
 * Work done on every tick (spec 2.10, 3.6 with sections 0.12 and 0.15): task timeouts fire once per
 * task and rule while the task is open; unacknowledged deliveries are re-sent to their own channel
 * after a full tick interval, until the retry limit turns them into `error`.
 */
import type { Core } from './core.ts';
import { spawn } from './flow.ts';
import type { Message } from './messages.ts';

export function checkTimeouts(core: Core, now: number): number {
  let fired = 0;
  for (const task of [...core.timed]) {
    if (task.terminal) {
      core.timed.delete(task);
      continue;
    }
    const proc = core.procs.get(task.pid);
    if (!proc || proc.finished) {
      core.timed.delete(task);
      continue;
    }
    task.node.timeouts.forEach((rule, index) => {
      if (task.firedTimeouts.has(index) || !(now - task.startTime >= rule.ms)) return;
      task.firedTimeouts.add(index);
      fired++;
      core.markDirty(proc, task);
      const head = rule.head;
      if (head) core.job(proc.pid, `timeout ${task.tid}`, () => {
        if (!task.terminal) spawn(core, proc, head, task, task);
      });
    });
    if (task.firedTimeouts.size === task.node.timeouts.length) core.timed.delete(task);
  }
  return fired;
}

const RETRY_BATCH = 300;

export async function redeliver(core: Core, now: number): Promise<number> {
  await core.writer.flush();
  const { store } = core;
  const due = await store.deliveries.query({
    filter: {
      type: 'and',
      exprs: [
        { key: 'status', op: 'eq', value: 'created' },
        { key: 'update_time', op: 'le', value: now - core.config.tickMs },
      ],
    },
    order_by: ['update_time'],
    limit: RETRY_BATCH,
  });
  let sent = 0;
  for (const row of due.rows) {
    const canonical = await store.messages.find(row.msg_id);
    if (!canonical) {
      await store.deliveries.delete(row.id);
      continue;
    }
    if (row.retry_times >= core.config.maxMessageRetryTimes) {
      await store.deliveries.update({ ...row, status: 'error', update_time: now });
      continue;
    }
    const retry = row.retry_times + 1;
    await store.deliveries.update({ ...row, retry_times: retry, update_time: now });
    const channel = core.channels.get(row.chan_id);
    const handler = channel?.handlers.message;
    if (!handler) continue;
    const message: Message = { ...canonical, retry_times: retry, delivery_id: row.id };
    core.dispatcher.dispatch(message.pid, () => handler(message));
    sent++;
  }
  return sent;
}
