/**
 * Tells listeners in this process when a user's access may have shrunk: an API token revoked, a
 * session ended (logout), the user disabled, their roles changed, their password set (which ends
 * their sessions). Emitted after the change is in the store, so a listener that re-resolves a
 * credential sees the new state. Listeners (the socket layer) must not throw or block: they
 * start their own work.
 *
 * State: the set of listeners.
 */
import type { AccessChange } from './types.ts';

export type AccessListener = (change: AccessChange) => void;

export class AccessEvents {
  private readonly listeners = new Set<AccessListener>();

  /** Returns the unsubscribe. */
  on(listener: AccessListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: AccessChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}
