/**
 * `DraftBook`: each designer's unsaved work, one row per user and model (or per user and `fresh`
 * key for a workflow never deployed), written by the designer's autosave and read back when they
 * return. A user sees and changes only their own drafts; `othersOf` tells who else is changing
 * a model (names and times, never their text).
 *
 * State, per user and key: none → saved (each save replaces text, layout and base; `create_time`
 * stays the first save's) → none again (discarded, or the model was deployed from it). A user
 * keeps at most MAX_DRAFTS_PER_USER drafts: a save that would start one more is refused
 * (`draft.limit`).
 */
import { ActError } from '../engine/errors.ts';
import type { Clock } from '../engine/clock.ts';
import type { DraftRow, ServerStore } from '../store/server-rows.ts';
import { draftTitle } from './draft-title.ts';
import type { Draft, DraftKey, DraftOwner, DraftSave, DraftSummary } from './types.ts';

export const MAX_DRAFTS_PER_USER = 100;

export type DraftStore = Pick<ServerStore, 'drafts' | 'serverQueries'>;

/** The row id of a user's draft: unique per user and key, so a save is an upsert of a known row. */
function rowId(userId: string, key: DraftKey): string {
  return key.mid !== undefined ? `${userId}/m/${key.mid}` : `${userId}/n/${key.fresh}`;
}

function summaryOf(row: DraftRow): DraftSummary {
  const fresh = row.mid === '' ? row.id.slice(row.user_id.length + 3) : '';
  return { mid: row.mid, fresh, title: row.title, user_name: row.user_name, base_ver: row.base_ver, create_time: row.create_time, update_time: row.update_time };
}

export class DraftBook {
  constructor(
    private readonly store: DraftStore,
    private readonly clock: Clock,
  ) {}

  /** Saves (creates or replaces) the owner's draft of `key`; returns it without its text. */
  async save(owner: DraftOwner, input: DraftSave): Promise<DraftSummary> {
    const id = rowId(owner.userId, input.key);
    const prev = await this.store.drafts.find(id);
    if (!prev && (await this.store.serverQueries.draftsOfUser(owner.userId)).length >= MAX_DRAFTS_PER_USER) {
      throw new ActError('draft.limit', `you already keep ${MAX_DRAFTS_PER_USER} drafts: deploy or discard some on the models page first`);
    }
    const now = this.clock.now();
    const row: DraftRow = {
      id,
      user_id: owner.userId,
      user_name: owner.name,
      mid: input.key.mid ?? '',
      title: draftTitle(input.source),
      source: input.source,
      layout: input.layout,
      base_ver: input.base_ver,
      create_time: prev?.create_time ?? now,
      // strictly after the previous save, so "saved after" comparisons hold within one millisecond
      update_time: prev ? Math.max(now, prev.update_time + 1) : now,
    };
    await this.store.drafts.upsert(row);
    return summaryOf(row);
  }

  /** The owner's draft of `key`, or null. */
  async get(owner: DraftOwner, key: DraftKey): Promise<Draft | null> {
    const row = await this.store.drafts.find(rowId(owner.userId, key));
    return row ? { ...summaryOf(row), source: row.source, layout: row.layout ?? {} } : null;
  }

  /** The owner's drafts, most recently saved first. */
  async list(owner: DraftOwner): Promise<DraftSummary[]> {
    return (await this.store.serverQueries.draftsOfUser(owner.userId)).map(summaryOf);
  }

  /** Deletes the owner's draft of `key`; whether there was one. */
  discard(owner: DraftOwner, key: DraftKey): Promise<boolean> {
    return this.store.drafts.delete(rowId(owner.userId, key));
  }

  /** The other users' drafts of the deployed model `mid`, most recently saved first. */
  async othersOf(owner: DraftOwner, mid: string): Promise<DraftSummary[]> {
    return (await this.store.serverQueries.draftsOfModel(mid)).filter((r) => r.user_id !== owner.userId).map(summaryOf);
  }
}
