/**
 * The API's one rule for U+0000 (NUL): no string of any input — value or object key, at any
 * depth, of any procedure — may hold it. PostgreSQL text cannot store NUL, so without this rule the
 * same call would work on SQLite and fail as `internal` on PostgreSQL. A breach is `input.invalid`
 * with the field's path, checked in trpc.ts before the procedure's own schema.
 */
import { ActError } from '../engine/errors.ts';
import { firstNul, showNul, type NulAt } from '../engine/nul-text.ts';

function fieldName(at: NulAt): string {
  const path = at.path.join('.');
  if (at.inKey !== undefined) return `${path ? `the field '${path}'` : 'the input'} has a key '${showNul(at.inKey)}' that`;
  return path ? `the field '${path}'` : 'the input';
}

/** Throws `input.invalid` naming the first field (or key) of `input` that holds U+0000. */
export function refuseNul(input: unknown): void {
  const at = firstNul(input);
  if (!at) return;
  const message = `${fieldName(at)} contains the character U+0000 (NUL), which cannot be stored; remove it and send the call again`;
  const path = [...at.path, ...(at.inKey === undefined ? [] : [showNul(at.inKey)])].join('.');
  throw new ActError('input.invalid', message, { issues: [{ path, message }] });
}
