/**
 * The schedule timer (spec 5.7): schedule triggers fire at their due time, not at the next tick.
 * One timeout (unref'd) is armed at the earliest `next_run` of the enabled schedule rows (one
 * query, `nextSchedule`), at most `SCHEDULE_RECHECK_MS` ahead — the re-check also keeps the delay
 * far below setTimeout's limit (2^31-1 ms) and catches rows another instance changed. It is
 * armed again when the engine starts (after its boot recovery), after a deploy, a removal or an
 * enable/disable (`rearm`), and after every wake.
 *
 * On a wake the leader (the tick's rule: instances.ts `isLeader`) runs a fire pass; then the
 * timer is armed for the first `next_run` after that pass's time, so a row the pass could not
 * advance (model gone, engine busy) is left to the tick instead of waking the timer in a loop —
 * unless a row changed meanwhile (`rearm`): then every row counts, a due one wakes it at once.
 * Passes — the timer's and the tick's fallback (`fire`) — run one at a time: a row is due once
 * per due time, and the pass that fires it advances it before the next pass queries.
 *
 * State: idle (not started: no automatic tick) → armed (a timeout at `wakeAt`) → waking (query
 * or pass in flight) → armed … → closed (timeout cleared, the pass in flight awaited).
 */
import { errorMessage } from '../engine/errors.ts';
import { LoopGuard } from './loop-guard.ts';
import type { Runtime } from './runtime-types.ts';
import { fireSchedules, type Starter } from './schedules.ts';

/** The longest the timer sleeps without asking the store for the earliest due time again, ms. */
export const SCHEDULE_RECHECK_MS = 60_000;

export interface ScheduleTimerParts {
  start: Starter;
  /** Whether this instance fires shared timers now. */
  isLeader: () => Promise<boolean>;
}

/** What the health report says of the timer. */
export interface ScheduleTimerHealth {
  /** When the timer wakes next (epoch ms), null when it is not armed. */
  wakeAt: number | null;
}

export class ScheduleTimer {
  /** The `schedule-trigger` loop's health guard (spec 5.10): the tick runs its passes behind it; a timer pass that fails counts, a clean one clears it. */
  readonly guard: LoopGuard;
  private handle: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;
  private started = false;
  private closed = false;
  /** Bumped by every arm: an arm whose query answers after a newer one began is dropped. */
  private generation = 0;
  /** A row changed during the wake in flight: its arm must look at every row, due ones too. */
  private changed = false;
  /** The fire passes, one after another. */
  private passes: Promise<unknown> = Promise.resolve();
  /** Arms and wakes in flight (close waits for them: they read the store). */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly rt: Runtime,
    private readonly parts: ScheduleTimerParts,
  ) {
    this.guard = new LoopGuard('schedule-trigger', rt.events);
  }

  /** Starts timing (the engine's automatic tick is on and its boot recovery ended). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.rearm();
  }

  /** Arms the timer again from the rows as they are now (a trigger row changed). */
  rearm(): void {
    if (!this.started || this.closed) return;
    this.changed = true;
    this.track(this.arm(0));
  }

  /** One fire pass at `now`, after the pass in flight; how many processes it started. */
  fire(now: number): Promise<number> {
    const pass = this.passes.then(() => fireSchedules(this.rt, this.parts.start, now));
    this.passes = pass.catch(() => undefined);
    return pass;
  }

  health(): ScheduleTimerHealth {
    return { wakeAt: this.wakeAt };
  }

  /** Clears the timeout and waits for the work in flight; the timer stays closed. */
  async close(): Promise<void> {
    this.closed = true;
    this.clear();
    await Promise.all([...this.inFlight]);
    await this.passes;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private clear(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
    this.wakeAt = null;
  }

  /** Arms the timeout at the first `next_run` after `after` (0: the earliest set one). */
  private async arm(after: number): Promise<void> {
    const generation = ++this.generation;
    let next: number | null = null;
    try {
      next = (await this.rt.store.queries.nextSchedule(after))?.next_run ?? null;
    } catch (err) {
      this.rt.log.error(`the schedule timer could not read the next due time (asked again in ${SCHEDULE_RECHECK_MS / 1000} s): ${errorMessage(err)}`);
    }
    if (this.closed || generation !== this.generation) return;
    const now = this.rt.clock.now();
    const delay = next === null ? SCHEDULE_RECHECK_MS : Math.min(Math.max(next - now, 0), SCHEDULE_RECHECK_MS);
    this.clear();
    this.wakeAt = now + delay;
    this.handle = setTimeout(() => this.track(this.wake()), delay);
    this.handle.unref();
  }

  private async wake(): Promise<void> {
    this.handle = null;
    this.wakeAt = null;
    if (this.closed) return;
    this.changed = false;
    const now = this.rt.clock.now();
    try {
      if (await this.parts.isLeader()) {
        await this.fire(now);
        this.guard.recovered(now);
      }
    } catch (err) {
      this.guard.failed(err, now);
      this.rt.log.error(`${this.guard.name} timer failed: ${errorMessage(err)}`);
    }
    await this.arm(this.changed ? 0 : now);
  }
}
