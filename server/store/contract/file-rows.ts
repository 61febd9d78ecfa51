/**
 * Files uploaded for an interrupt act's answer (server/http/files, vocab/answer-fields.ts): one row
 * per upload, kept with its process and deleted with it by the sweeper
 * (StoreQueries.deleteProcessRows). Part of the store boundary (types.ts re-exports it).
 */

/** One uploaded file: who uploaded it for which task and field, and its bytes (base64 text). */
export interface FileRow {
  /** Random, unguessable; the answer's reference names it (`{ file: id, … }`). */
  id: string;
  pid: string;
  tid: string;
  /** The answer field it was uploaded for. */
  field: string;
  /** The file's name as the browser gave it. */
  name: string;
  /** Its media type as the upload said it (`application/octet-stream` when it said none). */
  type: string;
  /** Bytes. */
  size: number;
  /** The bytes as base64 (a TEXT column on every backend). */
  data: string;
  /** The user name of whoever uploaded it. */
  create_by: string;
  create_time: number;
}
