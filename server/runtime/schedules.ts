/**
 * Schedule triggers (spec 5.7): one query for the enabled `schedule` rows that are due; each is
 * started, then its `last_run`/`next_run` advance — even when the start failed, so a failing
 * trigger does not fire on every tick. A row whose model is gone or whose params are not an object
 * is not advanced (it is retried on the next tick), nor is one whose start was refused as busy (a
 * saturated store writer: retryable). Delivery is at-least-once: a crash between the
 * start and the row update fires again. Per-row failures are logged, not counted against health.
 */
import type { Runtime } from './runtime-types.ts';
import { ActError, errorMessage } from '../engine/errors.ts';
import { nextCronRun } from '../engine/model/index.ts';
import type { Vars } from '../engine/model/types.ts';

export type Starter = (mid: string, inputs: Vars) => Promise<unknown>;

export async function fireSchedules(rt: Runtime, start: Starter, now: number): Promise<number> {
  await rt.writer.flush();
  let fired = 0;
  for (const row of await rt.store.queries.dueSchedules(now, 1000)) {
    if (!(await rt.store.models.exists(row.mid))) {
      rt.log.error(`schedule ${row.id}: model '${row.mid}' is not deployed; retried next tick`);
      continue;
    }
    const params = row.params ?? {};
    if (typeof params !== 'object' || Array.isArray(params)) {
      rt.log.error(`schedule ${row.id}: invalid trigger payload (params must be an object); retried next tick`);
      continue;
    }
    try {
      await start(row.mid, params as Vars);
      fired++;
    } catch (err) {
      if (ActError.is(err) && err.code === 'engine.busy') {
        rt.log.warn(`schedule ${row.id}: start refused (${err.message}); retried next tick`);
        continue;
      }
      rt.log.warn(`schedule ${row.id}: start failed: ${errorMessage(err)}`);
    }
    const next = row.cron ? (nextCronRun(row.cron, row.timezone ?? undefined, now) ?? 0) : 0;
    await rt.store.events.update({ ...row, last_run: now, next_run: next, update_time: now });
  }
  return fired;
}
