/** The Inbox link's live badge: how many open tasks wait for the signed-in operator (use-inbox-badge.ts); new ones notify a hidden tab (task-notifications.ts). */
'use client';
import { useInboxBadge } from './use-inbox-badge.ts';
import { notifyArrived } from './task-notifications.ts';
import styles from './sidebar.module.css';

/** The id of the badge's sentence, which describes the Inbox link. */
export const INBOX_BADGE_LABEL = 'inbox-badge-label';

export function InboxBadge() {
  const count = useInboxBadge(true, notifyArrived);
  if (!count) return null;
  const label = count === 1 ? '1 open task for you' : `${count} open tasks for you`;
  // the link's name stays "Inbox"; the count is its description (aria-describedby INBOX_BADGE_LABEL)
  return (
    <>
      <span className={styles.badge} aria-hidden="true" title={label} data-testid="inbox-badge">
        {count > 99 ? '99+' : count}
      </span>
      <span id={INBOX_BADGE_LABEL} hidden>
        {label}
      </span>
    </>
  );
}
