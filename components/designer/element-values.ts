/** The plain values of one element of the YAML (by its document path, `steps[1].acts[0]`). */
import { isMap, isNode } from 'yaml';
import { openSource } from '../../vocab/model-tree/source.ts';

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

/** One field of an element as plain data (`undefined` when absent or the text is broken): no other field is converted. */
export function fieldValue(text: string, path: string, field: string): unknown {
  const { doc, errors } = openSource(text);
  if (errors.length) return undefined;
  const node = path ? doc.getIn(pathSegments(path), true) : doc.contents;
  const value = isMap(node) ? node.get(field, true) : undefined;
  return isNode(value) ? value.toJSON() : value;
}
