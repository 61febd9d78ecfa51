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
