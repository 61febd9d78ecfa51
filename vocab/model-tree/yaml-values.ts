/** Reading fields of the YAML tree: text as the author wrote it, lists of text, plain values. */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';

/** The value node of `key` in `map` (scalars kept as nodes). */
export function fieldNode(map: YAMLMap | undefined, key: string): unknown {
  return map?.get(key, true);
}

/** A scalar field as text (`id: 007` stays `007`); absent for missing, `null` or non-scalar values. */
export function textField(map: YAMLMap | undefined, key: string): string | undefined {
  const node = fieldNode(map, key);
  if (!isScalar(node) || node.value === null || node.value === undefined) return undefined;
  if (typeof node.value === 'string') return node.value;
  return node.source ?? String(node.value);
}

/** A field that is `true` (YAML boolean or the text `true`). */
export function flagField(map: YAMLMap | undefined, key: string): boolean {
  const node = fieldNode(map, key);
  return isScalar(node) && (node.value === true || node.value === 'true');
}

/** A list of text (`needs: [a, b]`); a single text reads as a one-item list. */
export function textListField(map: YAMLMap | undefined, key: string): string[] {
  const node = fieldNode(map, key);
  if (isSeq(node)) {
    return node.items.flatMap((item) => (isScalar(item) && item.value != null ? [String(item.value)] : []));
  }
  const single = textField(map, key);
  return single === undefined ? [] : [single];
}

/** A text field of a mapping field (`params.to`). */
export function nestedText(map: YAMLMap | undefined, key: string, inner: string): string | undefined {
  const node = fieldNode(map, key);
  return isMap(node) ? textField(node, inner) : undefined;
}

/** The text of a scalar key (`steps` in `steps: …`). */
export function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}
