/**
 * U+0000 (NUL) in values. PostgreSQL text cannot hold it (SQLite and memory can), so the API
 * refuses it in every input and model validation in every parsed model: every store then behaves
 * alike. `firstNul` walks a JSON-like value without recursion (a deeply nested input cannot
 * overflow the stack) and says where the first NUL is — in a string or in an object key.
 */

export type NulPathSegment = string | number;

/** Where the first NUL sits: the path to the string, or to the key that holds it. */
export interface NulAt {
  path: NulPathSegment[];
  /** The NUL is in this key of the object at `path` (not in a value). */
  inKey?: string;
}

const NUL = '\u0000';

/** Text that shows its NULs as `\u0000`, safe to log, audit and store. */
export function showNul(text: string): string {
  return text.replaceAll(NUL, '\\u0000');
}

interface Visit {
  value: unknown;
  /** The visit of the container, and this value's key or index in it (the path, built on a hit only). */
  parent: Visit | null;
  segment: NulPathSegment;
}

function pathOf(visit: Visit): NulPathSegment[] {
  const path: NulPathSegment[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) path.push(v.segment);
  return path.reverse();
}

/** The first string or key holding U+0000 in `value` (depth first, in key order), or null. */
export function firstNul(value: unknown): NulAt | null {
  const stack: Visit[] = [{ value, parent: null, segment: '' }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return { path: pathOf(visit) };
      continue;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    const entries: Array<[NulPathSegment, unknown]> = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
    for (const [key] of entries) if (typeof key === 'string' && key.includes(NUL)) return { path: pathOf(visit), inKey: key };
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], parent: visit, segment: entries[i][0] });
  }
  return null;
}
