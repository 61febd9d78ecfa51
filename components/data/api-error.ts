/**
 * The one error type the studio shows: the server's stable `code` and message (server/api/errors.ts
 * puts them in every tRPC error's `data`), plus a hint that says what a person can do about it.
 * Failures that never reached the API (network down, a proxy's HTML error page) get codes of
 * their own: `network` and `unavailable`; and anything else thrown in the page is the page's own
 * failure, `browser` — never the server's `internal`, whose hint sends a person to a server log
 * that holds nothing about it.
 */
import { TRPCClientError } from '@trpc/client';
import { codeTraits, type ErrorCode, type StudioCode } from '../../vocab/server-codes.ts';

export type ApiErrorCode = ErrorCode | StudioCode;

interface ErrorData {
  code?: ErrorCode;
  message?: string;
  details?: unknown;
  httpStatus?: number;
}

const HINTS: Partial<Record<ApiErrorCode, string>> = {
  'input.invalid': 'Correct what the message names and try again.',
  'input.too_large': 'Make what the message names smaller and try again.',
  network: 'The server cannot be reached. Check that it is running; the studio retries by itself.',
  unavailable: 'The server did not answer properly. Try again in a moment.',
  'auth.required': 'Your session has ended. Sign in again.',
  'auth.forbidden': 'Your roles do not allow this. Ask an admin for the role it needs.',
  'engine.busy': 'The engine is busy. Try again in a moment.',
  'engine.closed': 'The server is shutting down. Try again once it is back.',
  'process.elsewhere': 'This run is handled by another server instance. Try again in a moment.',
  internal: 'Something went wrong on the server. The details are in the server log.',
  browser: 'This failed in your browser, not on the server. Reload the page; if it fails again, report the message above.',
};

/** A fetch that never got an answer: what browsers (and Node's fetch) throw for it. */
const FETCH_FAILED = /fetch|network ?error|load failed/i;

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly details: unknown;
  readonly httpStatus: number | undefined;

  constructor(code: ApiErrorCode, message: string, details?: unknown, httpStatus?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
    this.httpStatus = httpStatus;
  }

  /** What a person can do about it, when the message alone does not say. */
  get hint(): string | undefined {
    return HINTS[this.code];
  }

  /** Worth retrying as is, by itself, soon (the code's `autoRetry`: vocab/server-codes.ts). */
  get retryable(): boolean {
    return codeTraits(this.code)?.autoRetry === true;
  }

  /** Seconds to wait before retrying (`auth.rate_limited`). */
  get retryAfterSecs(): number | undefined {
    const value = (this.details as { retryAfterSecs?: unknown } | undefined)?.retryAfterSecs;
    return typeof value === 'number' ? value : undefined;
  }
}

/** Any thrown value as an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof TRPCClientError) {
    const data = (err.data ?? undefined) as ErrorData | undefined;
    if (data?.code) return new ApiError(data.code, data.message ?? err.message, data.details, data.httpStatus);
    if (err.cause instanceof TypeError || /fetch/i.test(err.message)) return new ApiError('network', 'Cannot reach the server.');
    return new ApiError('unavailable', 'The server sent an answer the studio cannot read.');
  }
  if (err instanceof TypeError && FETCH_FAILED.test(err.message)) return new ApiError('network', 'Cannot reach the server.');
  return new ApiError('browser', err instanceof Error ? err.message : String(err));
}
