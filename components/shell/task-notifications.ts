/**
 * The browser's notifications of new inbox tasks (the Notification API): allowed per browser by
 * the user (`askPermission`, from a click: browsers ignore a request made without one), shown for
 * a task that arrives while the studio's tab is hidden (a visible tab has the live badge and list),
 * one per task (`tag`), opening the inbox when clicked. Does nothing where the API is missing or
 * the user has not allowed it.
 */
import type { InboxItem } from '../data/live-events.ts';

export type NotifyPermission = NotificationPermission | 'unsupported';

export function notifyPermission(): NotifyPermission {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : 'unsupported';
}

export async function askPermission(): Promise<NotifyPermission> {
  if (notifyPermission() === 'unsupported') return 'unsupported';
  return Notification.requestPermission();
}

/** What a task's notification says: its title (`params.title`, else its name) and the workflow. */
export function notificationText(item: InboxItem): { title: string; body: string } {
  const title = (item.params as { title?: unknown } | null)?.title;
  return { title: `New task: ${typeof title === 'string' && title.trim() ? title.trim() : item.name || item.key}`, body: item.model_name || item.mid };
}

export function notifyArrived(item: InboxItem): void {
  if (notifyPermission() !== 'granted' || document.visibilityState === 'visible') return;
  const { title, body } = notificationText(item);
  const shown = new Notification(title, { body, tag: `acts-task-${item.pid}-${item.tid}` });
  shown.onclick = () => {
    window.focus();
    window.location.assign('/inbox');
    shown.close();
  };
}
