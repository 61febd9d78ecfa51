/**
 * Keeps the author's text of numbers and booleans written where the model expects text.
 *
 * YAML reads `id: 007` as the number 7 and `name: 1.10` as 1.1; converting those numbers back with
 * `String()` would change what the author wrote. Before the document becomes plain data, this pass
 * walks the model fields (and only those: values inside `inputs`, `params`, … are user data and
 * keep their types) and turns such plain scalars back into their source text.
 */
import { isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import { ELEMENT_LISTS, type ElementKind } from '../../../vocab/graph.ts';

interface Shape {
  /** Fields whose value is text. */
  text: readonly string[];
  /** Fields holding a list of text. */
  textLists?: readonly string[];
}

const IDENTITY = ['id', 'name', 'desc', 'tag'] as const;

/** The text fields of each element kind; the fields holding lists of elements are ELEMENT_LISTS. */
const SHAPES: Record<ElementKind, Shape> = {
  workflow: { text: IDENTITY },
  step: { text: [...IDENTITY, 'if', 'next'] },
  branch: { text: [...IDENTITY, 'if', 'run'], textLists: ['needs'] },
  act: { text: [...IDENTITY, 'uses', 'key', 'if', 'on'] },
  catch: { text: ['on'] },
  timeout: { text: ['on'] },
  trigger: { text: [...IDENTITY, 'uses', 'cron', 'timezone'] },
};

function keepText(node: unknown): void {
  if (!isScalar(node) || node.type !== 'PLAIN' || typeof node.source !== 'string') return;
  const v = node.value;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') node.value = node.source;
}

function visit(node: Node | null | undefined, kind: ElementKind): void {
  if (!isMap(node)) return;
  const shape = SHAPES[kind];
  for (const pair of node.items as Pair<unknown, unknown>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    const list = ELEMENT_LISTS[kind].find(([field]) => field === key);
    if (shape.text.includes(key)) keepText(pair.value);
    else if (shape.textLists?.includes(key) && isSeq(pair.value)) pair.value.items.forEach(keepText);
    else if (list && isSeq(pair.value)) {
      for (const item of pair.value.items) visit(item as Node, list[1]);
    }
  }
}

/** Rewrites, in place, numeric and boolean scalars of text fields to their source text. */
export function keepScalarText(doc: Document): void {
  visit(doc.contents, 'workflow');
}
