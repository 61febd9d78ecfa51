/**
 * Tells listeners in this process when a user's access may have shrunk: an API token revoked, a
 * session ended (logout), the user disabled, their roles changed, their password set (which ends
 * their sessions). Emitted after the change is in the store, so a listener that re-resolves a
 * credential sees the new state. Listeners (the credential caches, the socket layer) must not
 * throw or block: they start their own work. A change made here may also be announced to the
 * other servers of a shared store (access-bus.ts), whose changes arrive through `receive`.
 *
 * State: the set of listeners; where changes made here are announced.
 */
import type { AccessChange } from './types.ts';

export type AccessListener = (change: AccessChange) => void;

export class AccessEvents {
  private readonly listeners = new Set<AccessListener>();
  private announce: AccessListener | undefined;

  /** Returns the unsubscribe. */
  on(listener: AccessListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A change made in this process: told to the listeners here, and announced. */
  emit(change: AccessChange): void {
    this.receive(change);
    this.announce?.(change);
  }

  /** A change another server announced: told to the listeners here only. */
  receive(change: AccessChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  /** Where the changes made here are announced from now on. */
  announceWith(announce: AccessListener): void {
    this.announce = announce;
  }
}
