/**
 * Asks this browser's permission to notify the operator of new tasks while the studio's tab is
 * hidden (components/shell/task-notifications.ts); says when it is on, or blocked (the browser's
 * site settings change that). Nothing where the browser has no notifications.
 * State: the permission as last read.
 */
'use client';
import { useEffect, useState } from 'react';
import { askPermission, notifyPermission, type NotifyPermission } from '../shell/task-notifications.ts';
import { Button } from '../ui/button.tsx';
import styles from './inbox-view.module.css';

export function NotifyButton() {
  const [permission, setPermission] = useState<NotifyPermission>('unsupported');
  useEffect(() => setPermission(notifyPermission()), []);
  if (permission === 'unsupported') return null;
  if (permission === 'granted') return <span className={styles.notifyState}>Notifications on (hidden tab)</span>;
  if (permission === 'denied') return <span className={styles.notifyState}>Notifications blocked in this browser</span>;
  return (
    <Button size="sm" variant="ghost" icon="bell" onClick={() => void askPermission().then(setPermission)}>
      Notify me of new tasks
    </Button>
  );
}
