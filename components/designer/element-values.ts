/** The plain values of one element of the YAML (by its document path, `steps[1].acts[0]`). */
import { isMap } from 'yaml';
import { openSource } from './model/source.ts';

/** `steps[1].acts[0]` → `['steps', 1, 'acts', 0]`. */
export function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]/g)) segments.push(match[2] !== undefined ? Number(match[2]) : match[1]);
  return segments;
}

/** The element's fields as plain data (`{}` when the path names no mapping or the text is broken). */
export function elementValues(text: string, path: string): Record<string, unknown> {
  const { doc, errors } = openSource(text);
  if (errors.length) return {};
  const node = path ? doc.getIn(pathSegments(path), true) : doc.contents;
  return isMap(node) ? (node.toJSON() as Record<string, unknown>) : {};
}
