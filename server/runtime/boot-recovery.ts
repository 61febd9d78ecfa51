/**
 * The boot recovery (spec 5.3): the unfinished processes of the store are loaded and continued,
 * as the engine's first slot fill (fills and ticks wait for it), in the foreground or in the
 * background, with its progress for `health().recovery` and for actions that wait for it.
 *
 * State: idle (nothing run yet) → recovering (`run` set, progress counted) → done (`failed`
 * counted) or failed (`error`: in the background that is logged and the engine stays not ready).
 */
import { errorMessage } from '../engine/errors.ts';
import type { RecoveryRun } from './action-intake.ts';
import type { Runtime } from './runtime-types.ts';
import type { RecoveryHealth } from './engine-health.ts';
import type { SlotFills } from './fills.ts';
import type { Models } from './models.ts';
import { recoverProcesses, type RecoverReport } from './recover.ts';

export class BootRecovery {
  health: RecoveryHealth = { recovering: false, loaded: 0, total: 0, failed: 0 };
  private run: (RecoveryRun & { report: Promise<RecoverReport> }) | null = null;

  constructor(
    private readonly rt: Runtime,
    private readonly models: Models,
  ) {}

  /** Whether it runs now. */
  get recovering(): boolean {
    return this.health.recovering;
  }

  /** The recovery running now, for actions on processes not loaded yet (action-intake.ts). */
  get running(): RecoveryRun | null {
    return this.health.recovering ? this.run : null;
  }

  /** Its report once it ended (rejects when it failed); null when none ran. */
  get report(): Promise<RecoverReport> | null {
    return this.run?.report ?? null;
  }

  /** Starts it as the first of `fills`; the promise rejects when it failed. */
  start(fills: SlotFills): Promise<RecoverReport> {
    this.health = { recovering: true, loaded: 0, total: 0, failed: 0 };
    const report = recoverProcesses(this.rt, this.models, ({ loaded, total }) => {
      this.health = { ...this.health, loaded, total };
    }).then(
      (done) => {
        this.health = { recovering: false, loaded: done.processes, total: done.processes, failed: done.failed.length };
        if (done.processes > 0 || done.failed.length > 0) {
          this.rt.log.info(`recovered ${done.processes} processes (${done.dispatched} tasks dispatched, ${done.failed.length} failed)`);
        }
        return done;
      },
      (err: unknown) => {
        this.health = { ...this.health, recovering: false, error: errorMessage(err) };
        this.rt.log.error(`recovering the unfinished processes failed: ${errorMessage(err)}`);
        throw err;
      },
    );
    const done = report.then(
      () => undefined,
      () => undefined,
    );
    const health = () => this.health;
    this.run = {
      get health() {
        return health();
      },
      done,
      report,
    };
    fills.occupy(done);
    return report;
  }
}
