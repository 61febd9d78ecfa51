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

/** Nesting past which the bound gives up (the exact measure then finds a cycle or the size). */
const BOUND_DEPTH = 64;

/**
 * An upper bound of the JSON size of `value` in bytes, walked without serializing it: a string
 * counts 6 bytes a character (`\uXXXX`, the most any UTF-16 unit becomes) and its quotes, a number
 * 24 (`-1.7976931348623157e+308`), a key like a string plus its colon; undefined and functions
 * count as `null`. Infinity once the bound passes `limit`, or where the walk cannot tell: values
 * with `toJSON` (dates), bigints, and nesting past BOUND_DEPTH.
 */
function jsonBytesAtMost(value: unknown, limit: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return 4;
    case 'bigint':
      return Infinity;
  }
  if (value === null) return 4;
  if (depth >= BOUND_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return Infinity;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      bytes += jsonBytesAtMost(item, limit, depth + 1) + 1;
      if (bytes > limit) return Infinity;
    }
    return bytes;
  }
  const fields = value as Record<string, unknown>;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    bytes += key.length * 6 + 4 + jsonBytesAtMost(fields[key], limit, depth + 1);
    if (bytes > limit) return Infinity;
  }
  return bytes;
}

/** Throws `data.too_large` when `value` is above the cap; `what` names it for the person reading. */
export function checkValueSize(what: string, value: unknown, cap: number): void {
  // most values are far below the cap: a bound proves it without serializing them
  if (jsonBytesAtMost(value, cap, 0) <= cap) return;
  const bytes = jsonBytes(value);
  if (bytes <= cap) return;
  throw new ActError('data.too_large', `${what} is ${roughBytes(bytes)} of JSON, above the limit of ${formatBytes(cap)} (value_cap_bytes): keep large content outside the process and pass a reference`, { bytes, limit: cap });
}
