/** Bounds on API input shared by the API's checks and the runtime (one number for both). */

/** The longest idempotency key a start accepts (server/runtime/start-keys.ts, server/api/start-key.ts). */
export const MAX_START_KEY_CHARS = 200;
