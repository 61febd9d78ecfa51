/** The audit log: `createAuditLog(store)`; the server's, written with the engine's store transactions: `engineAuditLog(store, engine)`. */
export { createAuditLog, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './audit-log.ts';
export { engineAuditLog } from './engine-writes.ts';
export { boundDetail, MAX_DETAIL_BYTES } from './bound-detail.ts';
export type { AuditEntry, AuditLog, AuditQuery } from './types.ts';
