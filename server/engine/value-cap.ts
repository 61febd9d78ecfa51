/**
 * The size bound of what workflows produce (issue 10, item 2): an act's result, a value a script
 * writes, the variables an action brings, a task's data and a process's start inputs are each at
 * most `value_cap_bytes` of JSON. Past it the act fails (or the action or start is refused) with
 * `data.too_large`, before anything reaches the store. A message carries a task's inputs and
 * outputs, so it is bounded by the same cap on each.
 */
import { ActError } from './errors.ts';
import { formatBytes } from './sandbox/failures.ts';

export const DEFAULT_VALUE_CAP_BYTES = 1024 * 1024;

/** `8388610` → `8.0 MiB`, `80011` → `78.1 KiB`. */
function roughBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** The JSON size of a value in bytes (0 for undefined). */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text);
}

/** Throws `data.too_large` when `value` is above the cap; `what` names it for the person reading. */
export function checkValueSize(what: string, value: unknown, cap: number): void {
  // a string's JSON is at least as long as it is: most values pass without being serialized
  if (typeof value === 'string' && value.length * 3 + 2 <= cap) return;
  const bytes = jsonBytes(value);
  if (bytes <= cap) return;
  throw new ActError('data.too_large', `${what} is ${roughBytes(bytes)} of JSON, above the limit of ${formatBytes(cap)} (value_cap_bytes): keep large content outside the process and pass a reference`, { bytes, limit: cap });
}
