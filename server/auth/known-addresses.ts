/**
 * The addresses each user name recently signed in from, so slowing a name down for guesses from
 * elsewhere never slows its owner at a place they signed in from before.
 *
 * State: (name, address) → time of the last successful sign-in; an entry is `known` for
 * `rememberMs` after it, then forgotten. At most `maxEntries` are kept (the least recently
 * signed-in one is forgotten first).
 */
import type { Clock } from '../engine/clock.ts';

export class KnownAddresses {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly rememberMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  has(key: string): boolean {
    const at = this.seen.get(key);
    if (at === undefined) return false;
    if (this.clock.now() - at < this.rememberMs) return true;
    this.seen.delete(key);
    return false;
  }

  add(key: string): void {
    this.seen.delete(key); // re-inserted last: the Map's order is the order of sign-in
    this.seen.set(key, this.clock.now());
    if (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value as string);
  }
}
