/**
 * The idempotency key of an API start (`processes.start`, `triggers.fire`): the input's
 * `idempotencyKey` or the `Idempotency-Key` header (webhook senders set headers, not bodies). Both
 * given must agree. The engine keeps the key with the process (runtime/start-keys.ts).
 */
import { z } from 'zod';
import { ActError } from '../engine/errors.ts';
import { MAX_START_KEY_CHARS } from '../../vocab/input-limits.ts';
import type { ApiContext } from './context.ts';

/** The optional `idempotencyKey` field of a start input. */
export const idempotencyKey = z
  .string()
  .min(1, 'the idempotency key is empty')
  .max(MAX_START_KEY_CHARS, `the idempotency key is longer than ${MAX_START_KEY_CHARS} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'the idempotency key must not contain control characters')
  .optional();

/** The key of this call, or undefined; `input.invalid` when the input and the header disagree or the header is not a valid key. */
export function startKeyOf(ctx: Pick<ApiContext, 'idempotencyKey'>, fromInput: string | undefined): string | undefined {
  const header = ctx.idempotencyKey ?? undefined;
  if (header !== undefined && fromInput !== undefined && header !== fromInput) {
    throw new ActError('input.invalid', 'the Idempotency-Key header and the input idempotencyKey differ; send one of them, or the same key in both');
  }
  const key = fromInput ?? header;
  if (key === undefined) return undefined;
  const checked = idempotencyKey.safeParse(key);
  if (!checked.success) throw new ActError('input.invalid', `Idempotency-Key: ${checked.error.issues[0].message}`);
  return key;
}
