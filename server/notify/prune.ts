/**
 * Keeps the notification tables bounded: notifications that are done (sent, dropped, failed) and
 * link uses are deleted KEEP_MS after their last change — a link's use row outlives the link
 * (which expires first, so a deleted use can never let a link work twice, as long as
 * ACTS_MAIL_LINK_HOURS stays under KEEP_MS). The sender runs it at most every PRUNE_EVERY_MS.
 */
import { and, is } from '../store/contract/filters.ts';
import type { ServerStore } from '../store/server-rows.ts';

export const KEEP_MS = 30 * 24 * 3_600_000;
export const PRUNE_EVERY_MS = 3_600_000;

/** Deletes what is older than KEEP_MS (or than `linkTtlMs`, if longer, for link uses); how many rows of each. */
export async function pruneNotifications(store: Pick<ServerStore, 'notifications' | 'mailLinkUses'>, now: number, linkTtlMs: number): Promise<{ notifications: number; linkUses: number }> {
  const notifications = await store.notifications.deleteWhere(and(is('state', 'ne', 'pending'), is('update_time', 'lt', now - KEEP_MS)));
  const linkUses = await store.mailLinkUses.deleteWhere(and(is('use_time', 'lt', now - Math.max(KEEP_MS, linkTtlMs * 2))));
  return { notifications, linkUses };
}
