/** The Inbox link's live badge: how many open tasks wait for the signed-in operator (use-inbox-badge.ts); new ones notify a hidden tab (task-notifications.ts). */
'use client';
import { useInboxBadge } from './use-inbox-badge.ts';
import { notifyArrived } from './task-notifications.ts';
import styles from './sidebar.module.css';

export function InboxBadge() {
  const count = useInboxBadge(true, notifyArrived);
  if (!count) return null;
  const label = count === 1 ? '1 open task for you' : `${count} open tasks for you`;
  return (
    <span className={styles.badge} aria-label={label} title={label} data-testid="inbox-badge">
      {count > 99 ? '99+' : count}
    </span>
  );
}
