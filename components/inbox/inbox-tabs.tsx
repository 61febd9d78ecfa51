/** The inbox's views as tabs (vocab/inbox-views.ts): the tasks I hold, those offered to me and my groups, all I may see. Stateless. */
'use client';
import { INBOX_VIEW_LABELS, INBOX_VIEWS, type InboxView } from '../../vocab/inbox-views.ts';
import styles from './inbox-view.module.css';

export function InboxTabs({ view, onView }: { view: InboxView; onView: (view: InboxView) => void }) {
  return (
    <div className={styles.tabs} role="tablist" aria-label="Which tasks">
      {INBOX_VIEWS.map((v) => (
        <button key={v} type="button" role="tab" aria-selected={v === view} className={styles.tab} onClick={() => onView(v)}>
          {INBOX_VIEW_LABELS[v]}
        </button>
      ))}
    </div>
  );
}
