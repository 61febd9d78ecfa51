/**
 * The files uploaded for interrupt acts' answers, on the engine's store (`files`; the HTTP
 * endpoint server/http/files/ is the way in): one row each, written at once (not through the store
 * writer: an upload is no state change of its process) and deleted with the process by the
 * sweeper's batch (StoreQueries.deleteProcessRows). Ids are random (24 characters of base64url),
 * so a reference cannot be guessed. Stateless beyond the store.
 */
import crypto from 'node:crypto';
import type { Clock } from '../engine/clock.ts';
import type { FileRow, Store } from '../store/contract/types.ts';

/** What an upload stores; the id and the time are the store's. */
export type NewFile = Omit<FileRow, 'id' | 'create_time' | 'size' | 'data'> & { bytes: Buffer };

export class AnswerFiles {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Stores an upload; its row (the bytes as base64). */
  async put(file: NewFile): Promise<FileRow> {
    const { bytes, ...meta } = file;
    const row: FileRow = { id: crypto.randomBytes(18).toString('base64url'), ...meta, size: bytes.length, data: bytes.toString('base64'), create_time: this.clock.now() };
    await this.store.files.create(row);
    return row;
  }

  /** The upload of `id`, or undefined (never uploaded, or deleted with its process). */
  get(id: string): Promise<FileRow | undefined> {
    return this.store.files.find(id);
  }
}
