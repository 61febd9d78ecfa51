/** Designers' drafts: `new DraftBook(store, clock)`. */
export { DraftBook, MAX_DRAFTS_PER_USER, type DraftStore } from './draft-book.ts';
export type { Draft, DraftKey, DraftOwner, DraftSave, DraftSummary, Point } from './types.ts';
