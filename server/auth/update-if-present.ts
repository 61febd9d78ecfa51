/** A row update that may lose a race with a delete (logout, revoke) without failing the request. */
import type { Collection } from '../store/contract/types.ts';

/** Updates `row`; false when its row was deleted meanwhile (update never re-creates a row). */
export async function updateIfPresent<T extends { id: string }>(collection: Collection<T>, row: T): Promise<boolean> {
  try {
    await collection.update(row);
    return true;
  } catch (err) {
    if (await collection.exists(row.id)) throw err;
    return false;
  }
}
