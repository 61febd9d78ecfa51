/**
 * Access changes across the servers of a shared store (PostgreSQL): a change made on one server
 * (a logout, a revoked token, a user disabled…) is announced with NOTIFY `acts_access`, and every
 * other server tells its own listeners — its credential caches drop the user's entries and its
 * sockets look again — as if the change had been made there. Best effort: a lost notification
 * costs at most the caches' freshness bound (credential-cache.ts).
 *
 * State: this server's origin id, so that it ignores its own announcements.
 */
import crypto from 'node:crypto';
import type { Store } from '../store/contract/types.ts';
import type { AccessEvents } from './access-events.ts';
import type { AccessChange } from './types.ts';

export const ACCESS_TOPIC = 'acts_access';

/** The store's cross-instance wake-ups (Store.notify/listen). */
export type AccessBus = Required<Pick<Store, 'notify' | 'listen'>>;

export function shareAccessChanges(bus: AccessBus, events: AccessEvents): void {
  const origin = crypto.randomUUID();
  events.announceWith((change) => void bus.notify(ACCESS_TOPIC, JSON.stringify({ origin, userId: change.userId, reason: change.reason })).catch(() => undefined));
  void bus
    .listen(ACCESS_TOPIC, (payload) => {
      let change: AccessChange & { origin?: string };
      try {
        change = JSON.parse(payload) as AccessChange & { origin?: string };
      } catch {
        return;
      }
      if (change.origin !== origin && typeof change.userId === 'string') events.receive({ userId: change.userId, reason: change.reason });
    })
    .catch(() => undefined);
}
