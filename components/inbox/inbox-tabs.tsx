/**
 * The inbox's views as tabs (vocab/inbox-views.ts) — the tasks I hold, those offered to me and my
 * groups, all I may see — and the order of the list beside them. Stateless.
 */
'use client';
import { INBOX_ORDER_LABELS, INBOX_ORDERS, INBOX_VIEW_LABELS, INBOX_VIEWS, type InboxOrderChoice, type InboxView } from '../../vocab/inbox-views.ts';
import styles from './inbox-view.module.css';

interface InboxTabsProps {
  view: InboxView;
  onView: (view: InboxView) => void;
  order: InboxOrderChoice;
  onOrder: (order: InboxOrderChoice) => void;
}

export function InboxTabs({ view, onView, order, onOrder }: InboxTabsProps) {
  return (
    <div className={styles.tabs}>
      <div role="tablist" aria-label="Which tasks" className={styles.tabList}>
        {INBOX_VIEWS.map((v) => (
          <button key={v} type="button" role="tab" aria-selected={v === view} className={styles.tab} onClick={() => onView(v)}>
            {INBOX_VIEW_LABELS[v]}
          </button>
        ))}
      </div>
      <select aria-label="Order" className={styles.order} value={order} onChange={(e) => onOrder(e.target.value as InboxOrderChoice)}>
        {INBOX_ORDERS.map((o) => (
          <option key={o} value={o}>
            {INBOX_ORDER_LABELS[o]}
          </option>
        ))}
      </select>
    </div>
  );
}
