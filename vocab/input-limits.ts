/** Bounds on API input shared by the API's checks and the runtime (one number for both). */

/** The longest idempotency key a start accepts (server/runtime/start-keys.ts, server/api/start-key.ts). */
export const MAX_START_KEY_CHARS = 200;

/** The key of a never-deployed workflow's draft (`/models/new?draft=<key>`, `drafts.*` `{ fresh }`). */
export const DRAFT_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
