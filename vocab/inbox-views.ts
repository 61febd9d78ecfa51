/**
 * The views of the operator inbox (the API's `inbox.list({ view })` and the studio's tabs): the
 * tasks the caller holds, those offered to them and their groups that no one holds, and every
 * task they may see.
 */
export const INBOX_VIEWS = ['mine', 'groups', 'all'] as const;
export type InboxView = (typeof INBOX_VIEWS)[number];

/** Each view's label in the studio. */
export const INBOX_VIEW_LABELS: Readonly<Record<InboxView, string>> = {
  mine: 'Mine',
  groups: "My groups'",
  all: 'All I may see',
};

/** The inbox's orders (a select beside the tabs), and what each asks of `inbox.list`. */
export const INBOX_ORDERS = ['newest', 'oldest', 'due', 'priority'] as const;
export type InboxOrderChoice = (typeof INBOX_ORDERS)[number];

export const INBOX_ORDER_LABELS: Readonly<Record<InboxOrderChoice, string>> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  due: 'Due soonest',
  priority: 'Highest priority',
};

export function orderInput(order: InboxOrderChoice): { newestFirst: boolean; order: 'start' | 'due' | 'priority' } {
  if (order === 'due' || order === 'priority') return { newestFirst: false, order };
  return { newestFirst: order === 'newest', order: 'start' };
}
