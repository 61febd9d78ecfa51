/**
 * The engine's timer tick (spec 5.10): task timeouts, then the store-facing loops, each behind its
 * health guard — redelivery, the sweeper, lapsed instance rows and overflow replay
 * (`message-retry`), schedule triggers (`schedule-trigger`, the leader only: the fallback of the
 * schedule timer, schedule-timer.ts, whose guard it runs them behind) — then the liveness check of
 * the resident processes (stuck-detector.ts). Tests and the CLI call it with an injected clock.
 * Holds the retry loop's guard (loop-guard.ts: healthy → degraded → healthy).
 */
import type { Runtime } from './runtime-types.ts';
import type { BootRecovery } from './boot-recovery.ts';
import type { TickReport } from './engine-types.ts';
import type { SlotFills } from './fills.ts';
import type { InstanceLease } from './instances.ts';
import { LoopGuard, type LoopHealth } from './loop-guard.ts';
import { multiInstance } from './relay-records.ts';
import type { Relay } from './relay.ts';
import type { ScheduleTimer } from './schedule-timer.ts';
import type { StuckDetector } from './stuck-detector.ts';
import { checkTimeouts, redeliver, replayOverflow, sweepFinished } from './timers.ts';

export interface TickParts {
  rt: Runtime;
  lease: InstanceLease;
  relay: Relay;
  detector: StuckDetector;
  fills: SlotFills;
  recovery: BootRecovery;
  /** Fires due schedule triggers (its passes never overlap the timer's). */
  schedules: ScheduleTimer;
  /** Renews this instance's lease (errors logged, not thrown). */
  renewLease: () => Promise<void>;
  closed: () => boolean;
  /** How long finished processes stay before the sweeper deletes them (undefined: never). */
  sweepAfterMs?: number;
  /** Loads the external packages other instances registered (every tick of an instance sharing its store). */
  refreshPackages?: () => Promise<void>;
}

export class Ticker {
  private readonly retryLoop: LoopGuard;

  constructor(private readonly parts: TickParts) {
    this.retryLoop = new LoopGuard('message-retry', parts.rt.events);
  }

  /** The loops' health (engine-health.ts). */
  loops(): LoopHealth[] {
    return [this.retryLoop.health(), this.parts.schedules.guard.health()];
  }

  async tick(): Promise<TickReport> {
    const { rt, relay, detector, fills, recovery } = this.parts;
    const report: TickReport = { timeouts: 0, redelivered: 0, swept: 0, replayed: 0, fired: 0, stuck: 0 };
    if (this.parts.closed()) return report;
    await this.parts.renewLease();
    // recovering in the background: the first tick after it does the rest
    if (recovery.recovering) return report;
    // take over processes of instances whose lease lapsed (and fill free slots)
    await fills.request();
    if (multiInstance(rt.store)) {
      await relay.pass();
      await this.parts.refreshPackages?.().catch((err: unknown) => rt.log.warn(`external packages could not be loaded: ${err instanceof Error ? err.message : String(err)}`));
    }
    const now = rt.clock.now();
    report.timeouts = checkTimeouts(rt, now);
    rt.snapshots.sweep(now);
    const lease = this.parts.lease;
    const leader = await lease.isLeader();
    await this.retryLoop.run(now, rt.log, async () => {
      report.redelivered = await redeliver(rt, now);
      if (leader) report.swept = await sweepFinished(rt, now, this.parts.sweepAfterMs);
      if (leader) await lease.sweepLapsed();
      report.replayed = await replayOverflow(rt, now);
    });
    if (leader) {
      const { schedules } = this.parts;
      await schedules.guard.run(now, rt.log, async () => {
        report.fired = await schedules.fire(now);
      });
    }
    if (!this.parts.closed()) report.stuck = await detector.check();
    return report;
  }
}
