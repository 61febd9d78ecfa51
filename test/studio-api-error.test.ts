/**
 * The studio's errors (components/data/api-error.ts): a failure of the page itself is `browser`,
 * with a hint that says so — not `internal` with a hint that sends a person to a server log
 * holding nothing about it (a 1,000-step model's "Maximum call stack size exceeded" did) — while
 * a fetch that got no answer stays `network` and an API error keeps its code.
 */
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { ApiError, toApiError } from '../components/data/api-error.ts';

describe('studio errors', () => {
  it('calls what failed in the page a browser failure, with its message', () => {
    for (const thrown of [new RangeError('Maximum call stack size exceeded'), new TypeError("Cannot read properties of undefined (reading 'x')"), 'a string']) {
      const err = toApiError(thrown);
      expect(err.code).toBe('browser');
      expect(err.message).toBe(thrown instanceof Error ? thrown.message : thrown);
      expect(err.hint).toMatch(/in your browser, not on the server/);
    }
  });

  it('keeps network failures and API codes', () => {
    expect(toApiError(new TypeError('Failed to fetch')).code).toBe('network');
    expect(toApiError(new TypeError('fetch failed')).code).toBe('network');
    const api = TRPCClientError.from({ error: { message: 'no such process', code: -32004, data: { code: 'process.not_found', message: 'no such process' } } } as never);
    expect(toApiError(api)).toMatchObject({ code: 'process.not_found', message: 'no such process' });
    const own = new ApiError('engine.busy', 'busy');
    expect(toApiError(own)).toBe(own);
  });
});
