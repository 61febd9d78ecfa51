/**
 * Schedule triggers (spec 5.7): one query for the enabled `schedule` rows that are due; each is
 * started, then its `last_run`/`next_run` advance on the row as it is then (a redeploy or an
 * enable/disable during the start is not overwritten) — even when the start failed, so a failing
 * trigger does not fire on every tick. A row whose model is gone or whose params are not an object
 * is not advanced (it is retried on the next tick), nor is one whose start was refused as busy (a
 * saturated store writer: retryable), and a pass that meets the engine closing stops there (the
 * rows stay due for its next start). The schedule of an archived model advances without a start
 * or a warning: it rests until the model is un-archived. Delivery is at-least-once: a crash between the
 * start and the row update fires again. Per-row failures are logged, not counted against health.
 *
 * Who fires: the schedule timer (schedule-timer.ts) at each row's due time, the tick as the
 * fallback; their passes run one at a time, so a row fires once per due time.
 *
 * A (re)deploy never skips a due fire (`nextRunOnDeploy`): a row keeps its pending `next_run`
 * when that is due already (the fire is owed, whatever the new cron says; the fire then
 * advances the row by the new cron) or when the cron and the timezone are unchanged; a new
 * trigger, or a changed cron or timezone whose next run is not due yet, gets its next run
 * computed from now. A row without a cron has `next_run` 0 (never fires).
 */
import type { Runtime } from './runtime-types.ts';
import { ActError, errorMessage } from '../engine/errors.ts';
import { nextCronRun } from '../engine/model/index.ts';
import type { Vars } from '../engine/model/types.ts';
import type { EventRow } from '../store/contract/types.ts';

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
      if (ActError.is(err) && err.code === 'engine.closed') break; // not fired: the row stays due for the next start
      if (ActError.is(err) && err.code === 'model.archived') {
        // an archived model starts nothing new, by the admin's choice: its schedule rests quietly
        rt.log.debug(`schedule ${row.id}: model '${row.mid}' is archived; not started`);
      } else if (ActError.is(err) && err.code === 'engine.busy') {
        rt.log.warn(`schedule ${row.id}: start refused (${err.message}); retried next tick`);
        continue;
      } else rt.log.warn(`schedule ${row.id}: start failed: ${errorMessage(err)}`);
    }
    // advanced on the row as it is now: a deploy or an enable/disable during the start stays
    const current = await rt.store.events.find(row.id);
    if (!current) continue;
    const next = current.cron ? (nextCronRun(current.cron, current.timezone ?? undefined, now) ?? 0) : 0;
    await rt.store.events.update({ ...current, last_run: now, next_run: next, update_time: now });
  }
  return fired;
}

/** The `next_run` a deploy writes for a trigger with `cron`/`timezone` whose earlier row is `old` (see the header). */
export function nextRunOnDeploy(cron: string | null, timezone: string | null, old: EventRow | undefined, now: number): number {
  if (!cron) return 0;
  const pending = old?.cron && old.next_run > 0 ? old.next_run : 0;
  if (pending > 0 && (pending <= now || (old?.cron === cron && (old.timezone ?? null) === timezone))) return pending;
  return nextCronRun(cron, timezone ?? undefined, now) ?? 0;
}
