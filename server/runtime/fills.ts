/**
 * Slot fills: free resident slots are filled from the store (after a process left memory, and on
 * every tick, which also takes over processes of lapsed instances), one fill at a time; the boot
 * recovery counts as the first fill.
 *
 * State: idle → filling (a request meanwhile asks for one more round: `again`) → idle; closed
 * (the owner's `closed()`) ends the rounds.
 */
import { errorMessage } from '../engine/errors.ts';
import type { Runtime } from './runtime-types.ts';
import type { Models } from './models.ts';
import { fillSlots } from './recover.ts';

export class SlotFills {
  private filling: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly rt: Runtime,
    private readonly models: Models,
    private readonly closed: () => boolean,
  ) {}

  /** The fill running now (or the boot recovery), if any. */
  get current(): Promise<void> | null {
    return this.filling;
  }

  /** Runs `work` as a fill: requests wait for it, then fill again. */
  occupy(work: Promise<unknown>): void {
    const filling: Promise<void> = work
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (this.filling === filling) this.filling = null;
      });
    this.filling = filling;
  }

  /** Fills free slots; resolves when the fill it joined or started ran. */
  request(): Promise<void> {
    if (this.closed()) return Promise.resolve();
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    const filling: Promise<void> = (async () => {
      do {
        this.again = false;
        // after the job that freed the slot has queued its writes
        await new Promise((resolve) => setImmediate(resolve));
        await this.rt.writer.flush();
        if (this.closed()) return;
        await fillSlots(this.rt, this.models);
      } while (this.again);
    })()
      .catch((err) => this.rt.log.error(`filling free slots failed: ${errorMessage(err)}`))
      .finally(() => {
        if (this.filling === filling) this.filling = null;
      });
    this.filling = filling;
    return filling;
  }
}
