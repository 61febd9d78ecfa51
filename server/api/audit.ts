/**
 * Audit of mutations: `audited()` runs one mutation and records who did what to which target and
 * how it ended (`ok` or the stable error code), logs the same as one line (with `pid`/`tid`
 * fields where given, never the detail), then passes the result or the error on. A failing
 * audit write is logged; it does not undo or fail the mutation that already happened.
 * `recordAudit()` records one outcome directly (a call refused before its procedure ran).
 * A request's detail is kept by the audit log's one rule (server/audit/bound-detail.ts: secret
 * keys dropped, bounded with a preview), to 2 KiB of JSON unless the target asks for more.
 */
import type { Caller } from '../auth/types.ts';
import type { ApiServices } from './context.ts';
import { toActError } from './errors.ts';

/** The JSON a request's detail keeps in its audit entry. */
export const REQUEST_DETAIL_BYTES = 2048;

export interface AuditTarget {
  action: string;
  target: string;
  detail?: unknown;
  /** Log fields naming what was acted on (`pid`, `tid`, `mid`). */
  ids?: Record<string, string>;
  /** A larger bound of the detail's JSON than the 2 KiB of a request's (a bulk action's list of runs). */
  detailBytes?: number;
}

export async function audited<T>(services: ApiServices, caller: Caller | null, what: AuditTarget, fn: () => Promise<T>): Promise<T> {
  let result = 'ok';
  try {
    return await fn();
  } catch (err) {
    result = toActError(err).code;
    throw err;
  } finally {
    await recordAudit(services, caller, what, result);
  }
}

/** Records how one mutation ended (`ok` or an error code) and logs it; a failing write is only logged. */
export async function recordAudit(services: ApiServices, caller: Caller | null, what: AuditTarget, result: string): Promise<void> {
  const entry = {
    actor: caller?.userId ?? 'anonymous',
    actor_name: caller?.name ?? 'anonymous',
    action: what.action,
    target: what.target,
    detail: what.detail,
    result,
    detailBytes: what.detailBytes ?? REQUEST_DETAIL_BYTES,
  };
  // the audit log is the record of every mutation; the log line is for debugging, as request lines are
  if (services.log.isLevelEnabled('debug')) services.log.debug({ user: entry.actor_name, action: what.action, target: what.target, result, ...what.ids }, 'mutation');
  await services.audit.record(entry).catch((err: unknown) => services.log.error({ err: String(err), action: what.action }, 'audit record failed'));
}
