/**
 * Audit entry ids that sort in creation order within a process (time, then a counter), with a
 * random tail so ids of several server instances do not collide.
 *
 * State: the last millisecond an id was made in and the counter within it (reset each new ms).
 */
import { randomId, type Clock } from '../engine/clock.ts';
import { timePrefix } from '../engine/model/ids.ts';

export class EntryIds {
  private lastMs = -1;
  private counter = 0;

  constructor(private readonly clock: Clock) {}

  next(): string {
    const now = Math.max(this.clock.now(), this.lastMs); // a clock set back keeps the order
    this.counter = now === this.lastMs ? this.counter + 1 : 0;
    this.lastMs = now;
    return timePrefix(now) + this.counter.toString(36).padStart(4, '0') + randomId(8);
  }
}
