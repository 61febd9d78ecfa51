/**
 * Stand-ins used by `npm start` until server/auth and server/audit are wired in (the lead
 * passes the real implementations to `createServer`): an `Auth` that knows nobody (every call
 * is unauthenticated, login is refused) and an `AuditLog` that writes entries to the log.
 */
import type { Logger } from 'pino';
import type { AuditLog } from '../audit/types.ts';
import type { Auth } from '../auth/types.ts';
import { ActError } from '../engine/errors.ts';

const unwired = (): never => {
  throw new ActError('auth.invalid', 'sign-in is not configured on this server yet');
};

export const unwiredAuth: Auth = {
  login: async () => unwired(),
  logout: async () => undefined,
  fromSession: async () => null,
  fromToken: async () => null,
  setupNeeded: async () => false,
  setup: async () => unwired(),
  users: { list: async () => [], get: unwired, create: unwired, setRoles: unwired, setPassword: unwired, setDisabled: unwired },
  tokens: { create: unwired, list: async () => [], revoke: unwired },
};

export function loggingAuditLog(log: Logger): AuditLog {
  const audit = log.child({ component: 'audit' });
  return {
    record: async (entry) => void audit.info({ audit: entry }, 'audit'),
    query: async () => ({ count: 0, rows: [] }),
  };
}
