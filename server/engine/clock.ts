/** Injectable time and id sources, so tests of timers and ids are deterministic. */
import { newId, sortableId, type IdSource } from './model/ids.ts';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = 1_700_000_000_000) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

export type { IdSource } from './model/ids.ts';

/** Random ids from `0-9a-zA-Z`. */
export const randomId: IdSource = newId;

/** The engine's row ids: time first (see sortableId). */
export const sortableIds: IdSource = (length) => sortableId(length);
