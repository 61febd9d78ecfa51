/**
 * Problem paths: `steps[1].acts[0].uses`. Keys that are not plain identifiers are written as
 * `["my key"]` so that every path can be read back into segments.
 */

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Appends one segment to a path string. */
export function joinPath(path: string, segment: PathSegment): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  if (IDENTIFIER.test(segment)) return path ? `${path}.${segment}` : segment;
  return `${path}[${JSON.stringify(segment)}]`;
}

/** Formats segments (e.g. a zod issue path) as a path string. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const segment of segments) {
    path = joinPath(path, typeof segment === 'symbol' ? String(segment) : (segment as PathSegment));
  }
  return path;
}

const SEGMENT = /\.?([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/** Splits a path string into segments; stops at the first part it cannot read. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < path.length) {
    const match = SEGMENT.exec(path);
    if (!match) break;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]) as string);
  }
  return segments;
}
