/** The audit log: `createAuditLog(store)`. */
export { createAuditLog, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './audit-log.ts';
export { boundDetail, MAX_DETAIL_BYTES } from './bound-detail.ts';
export type { AuditEntry, AuditLog, AuditQuery } from './types.ts';
