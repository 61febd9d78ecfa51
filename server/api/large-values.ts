/**
 * Large variables in API reads (issue 10, item 2): `processes.get` and `tasks.get` answer a value
 * whose JSON is above `SHOWN_VALUE_BYTES` as a marker with its size and the start of its JSON, so
 * one big variable cannot make a read answer megabytes; `tasks.variable` pages through the whole
 * JSON text of one variable.
 */
import { jsonBytes } from '../engine/value-cap.ts';

/** Largest JSON of one variable shown whole in a read. */
export const SHOWN_VALUE_BYTES = 64 * 1024;
/** How much of a cut value's JSON the marker shows. */
const PREVIEW_CHARS = 1024;

export interface TruncatedValue {
  $truncated: true;
  /** The size of the whole value's JSON. */
  bytes: number;
  /** Its first characters; `tasks.variable` gives the rest. */
  preview: string;
}

/** The value, or its marker when its JSON is above `limit` bytes (the marker's preview: at most `preview` characters). */
export function shownValue(value: unknown, limit = SHOWN_VALUE_BYTES, preview = PREVIEW_CHARS): unknown {
  if (typeof value === 'string' ? value.length * 3 + 2 <= limit : value === null || typeof value !== 'object') return value;
  const bytes = jsonBytes(value);
  if (bytes <= limit) return value;
  return { $truncated: true, bytes, preview: JSON.stringify(value).slice(0, preview) } satisfies TruncatedValue;
}

/** A map of variables with each large one replaced by its marker. */
export function shownVars<T extends Record<string, unknown> | null | undefined>(vars: T): T {
  if (!vars) return vars;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(vars)) {
    const shown = shownValue(value);
    if (shown !== value) (out ??= { ...vars })[key] = shown;
  }
  return (out ?? vars) as T;
}

/** A task as reads show it: its variable maps and params with large values cut. */
export function shownTask<T extends { data: Record<string, unknown>; inputs: Record<string, unknown>; outputs: Record<string, unknown>; params: unknown }>(task: T): T {
  return { ...task, data: shownVars(task.data), inputs: shownVars(task.inputs), outputs: shownVars(task.outputs), params: shownValue(task.params) };
}

/** One page of a variable's JSON text. */
export function variablePage(value: unknown, offset: number, limit: number): { text: string; offset: number; total: number; next: number | null } {
  const json = JSON.stringify(value) ?? 'null';
  const text = json.slice(offset, offset + limit);
  const end = offset + text.length;
  return { text, offset, total: json.length, next: end < json.length ? end : null };
}
