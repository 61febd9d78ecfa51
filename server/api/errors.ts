/**
 * The one place where errors become API errors. Every ActError code maps to the tRPC code of its
 * HTTP status (vocab/engine-codes.ts, vocab/server-codes.ts); the response's `data` carries the
 * stable ActError `code`, its message and details. Zod failures
 * become `input.invalid` (or `input.too_large` for a size limit) with their issues, each a
 * sentence naming its field (issue-sentences.ts), the message all of them; anything else
 * becomes `internal` with a generic message — never a stack, a SQL text or a connection string.
 */
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ActError, type ErrorCode } from '../engine/errors.ts';
import { ENGINE_CODES, type CodeTraits } from '../../vocab/engine-codes.ts';
import { API_CODES } from '../../vocab/server-codes.ts';
import { issueSentence, type IssueFacts } from './issue-sentences.ts';

const TRAITS = { ...ENGINE_CODES, ...API_CODES } satisfies Record<ErrorCode, CodeTraits & { http: number }>;

/** The tRPC code of each HTTP status the code tables use (tRPC answers with that status). */
const TRPC_BY_HTTP: Readonly<Record<(typeof TRAITS)[ErrorCode]['http'], TRPC_ERROR_CODE_KEY>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** The `data` of every API error. */
export interface ApiErrorData {
  code: ErrorCode;
  message: string;
  details?: unknown;
  httpStatus: number;
  path?: string;
}

export interface IssueLike extends Omit<IssueFacts, 'path'> {
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  params?: Record<string, unknown>;
}

/** Marker put on zod issues of a size limit (see limits.ts). */
export const TOO_LARGE = 'too_large';

function pathKeys(issue: IssueLike): PropertyKey[] {
  return (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null ? p.key : p));
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
    const issues = err.issues.map((i) => {
      const path = pathKeys(i);
      return { path: path.map(String).join('.'), message: issueSentence({ ...i, path }) };
    });
    const tooLarge = err.issues.some((i) => i.params?.[TOO_LARGE] === true);
    const summary = issues.map((i) => i.message).join(' ');
    return new ActError(tooLarge ? 'input.too_large' : 'input.invalid', summary, { issues });
  }
  return new ActError('internal', 'internal error');
}

/** The tRPC code of an ActError code. */
export function trpcCode(code: ErrorCode): TRPC_ERROR_CODE_KEY {
  return TRPC_BY_HTTP[TRAITS[code].http];
}

/** What the client sees of an error: code, message, details (hidden for internal ones). */
export function publicError(err: ActError): { code: ErrorCode; message: string; details?: unknown } {
  if ((TRAITS[err.code] as CodeTraits).hidden) return { code: err.code, message: 'internal error; see the server log' };
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
