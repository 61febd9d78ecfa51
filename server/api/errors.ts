/**
 * The one place where errors become API errors. Every ActError code maps to a tRPC code; the
 * response's `data` carries the stable ActError `code`, its message and details. Zod failures
 * become `input.invalid` (or `input.too_large` for a size limit) with their issues; anything else
 * becomes `internal` with a generic message — never a stack, a SQL text or a connection string.
 */
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ActError, type ErrorCode } from '../engine/errors.ts';

const TRPC_CODE: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  'model.invalid': 'BAD_REQUEST',
  'model.not_found': 'NOT_FOUND',
  'process.not_found': 'NOT_FOUND',
  'process.duplicate_pid': 'CONFLICT',
  'process.invalid_pid': 'BAD_REQUEST',
  'process.finished': 'CONFLICT',
  'process.step_budget': 'UNPROCESSABLE_CONTENT',
  'data.too_large': 'PAYLOAD_TOO_LARGE',
  'process.elsewhere': 'PRECONDITION_FAILED',
  'process.key_conflict': 'CONFLICT',
  'inputs.invalid': 'BAD_REQUEST',
  'task.not_found': 'NOT_FOUND',
  'action.unknown': 'BAD_REQUEST',
  'action.refused': 'CONFLICT',
  'action.invalid_options': 'BAD_REQUEST',
  'package.unknown': 'NOT_FOUND',
  'package.invalid': 'BAD_REQUEST',
  'params.invalid': 'BAD_REQUEST',
  'trigger.not_found': 'NOT_FOUND',
  'delivery.not_found': 'NOT_FOUND',
  'script.error': 'BAD_REQUEST',
  'config.invalid': 'INTERNAL_SERVER_ERROR',
  'engine.busy': 'TOO_MANY_REQUESTS',
  'engine.closed': 'SERVICE_UNAVAILABLE',
  'auth.required': 'UNAUTHORIZED',
  'auth.forbidden': 'FORBIDDEN',
  'auth.invalid': 'UNAUTHORIZED',
  'auth.rate_limited': 'TOO_MANY_REQUESTS',
  'auth.setup_done': 'CONFLICT',
  'user.not_found': 'NOT_FOUND',
  'user.duplicate': 'CONFLICT',
  'input.invalid': 'BAD_REQUEST',
  'input.too_large': 'PAYLOAD_TOO_LARGE',
  internal: 'INTERNAL_SERVER_ERROR',
};

/** Codes whose message may hold server internals (SQL, paths, URLs): clients get a generic text. */
const HIDDEN = new Set<ErrorCode>(['internal', 'config.invalid']);

/** The `data` of every API error. */
export interface ApiErrorData {
  code: ErrorCode;
  message: string;
  details?: unknown;
  httpStatus: number;
  path?: string;
}

export interface IssueLike {
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  message: string;
  params?: Record<string, unknown>;
}

/** Marker put on zod issues of a size limit (see limits.ts). */
export const TOO_LARGE = 'too_large';

function issuePath(issue: IssueLike): string {
  return (issue.path ?? []).map((p) => String(typeof p === 'object' && p !== null ? p.key : p)).join('.');
}

function hasIssues(err: unknown): err is { issues: IssueLike[] } {
  return typeof err === 'object' && err !== null && Array.isArray((err as { issues?: unknown }).issues);
}

/** Turns any throwable met while serving a request into the ActError clients see. */
export function toActError(err: unknown): ActError {
  if (ActError.is(err)) return err;
  if (err instanceof TRPCError) {
    if (err.cause && (ActError.is(err.cause) || hasIssues(err.cause))) return toActError(err.cause);
    if (err.code === 'PAYLOAD_TOO_LARGE') return new ActError('input.too_large', 'the request body is larger than 1 MiB');
    if (err.code === 'PARSE_ERROR' || err.code === 'BAD_REQUEST') return new ActError('input.invalid', err.message);
    if (err.code === 'NOT_FOUND') return new ActError('input.invalid', 'no such procedure');
    if (err.code === 'METHOD_NOT_SUPPORTED') return new ActError('input.invalid', err.message);
  }
  if (hasIssues(err)) {
    const issues = err.issues.map((i) => ({ path: issuePath(i), message: i.message }));
    const tooLarge = err.issues.some((i) => i.params?.[TOO_LARGE] === true);
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return new ActError(tooLarge ? 'input.too_large' : 'input.invalid', summary, { issues });
  }
  return new ActError('internal', 'internal error');
}

/** The tRPC code of an ActError code. */
export function trpcCode(code: ErrorCode): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE[code];
}

/** What the client sees of an error: code, message, details (hidden for internal ones). */
export function publicError(err: ActError): { code: ErrorCode; message: string; details?: unknown } {
  if (HIDDEN.has(err.code)) return { code: err.code, message: 'internal error; see the server log' };
  return err.details === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, details: err.details };
}

/** Whether a thrown value carries its own API error (an ActError, or validation issues). */
export function carriesCode(err: unknown): boolean {
  return ActError.is(err) || hasIssues(err);
}

/** Re-throws an ActError as the TRPCError of its code (the formatter reads the cause back). */
export function asTrpcError(err: unknown): TRPCError {
  if (err instanceof TRPCError) return err;
  const act = toActError(err);
  return new TRPCError({ code: trpcCode(act.code), message: act.message, cause: ActError.is(err) || hasIssues(err) ? act : (err as Error) });
}
