/** Authentication, users and roles, API tokens: `createAuth(store)` and the first admin. */
export { createAuth } from './create-auth.ts';
export type { AuthOptions, AuthStore } from './create-auth.ts';
export { ensureAdminFromEnv, ENV_ADMIN_NAME } from './first-admin.ts';
export { API_TOKEN_PREFIX } from './secrets.ts';
export type { AccessChange, AccessChangeReason, Auth, Caller, Role, Session, TokenInfo, UserInfo } from './types.ts';
