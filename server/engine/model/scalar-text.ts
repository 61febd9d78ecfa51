/**
 * Keeps the author's text of numbers and booleans written where the model expects text.
 *
 * YAML reads `id: 007` as the number 7 and `name: 1.10` as 1.1; converting those numbers back with
 * `String()` would change what the author wrote. Before the document becomes plain data, this pass
 * walks the model fields (and only those: values inside `inputs`, `params`, … are user data and
 * keep their types) and turns such plain scalars back into their source text.
 */
import { isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';

type Kind = 'workflow' | 'step' | 'branch' | 'act' | 'catch' | 'timeout' | 'trigger';

interface Shape {
  /** Fields whose value is text. */
  text: readonly string[];
  /** Fields holding a list of text. */
  textLists?: readonly string[];
  /** Fields holding a list of nodes of a kind. */
  lists: Readonly<Record<string, Kind>>;
}

const IDENTITY = ['id', 'name', 'desc', 'tag'] as const;

const SHAPES: Record<Kind, Shape> = {
  workflow: { text: IDENTITY, lists: { setup: 'act', on: 'trigger', steps: 'step' } },
  step: {
    text: [...IDENTITY, 'if', 'next'],
    lists: { acts: 'act', branches: 'branch', catches: 'catch', timeout: 'timeout', setup: 'act' },
  },
  branch: { text: [...IDENTITY, 'if', 'run'], textLists: ['needs'], lists: { steps: 'step' } },
  act: {
    text: [...IDENTITY, 'uses', 'key', 'if', 'on'],
    lists: { setup: 'act', catches: 'catch', timeout: 'timeout' },
  },
  catch: { text: ['on'], lists: { steps: 'step' } },
  timeout: { text: ['on'], lists: { steps: 'step' } },
  trigger: { text: [...IDENTITY, 'uses', 'cron', 'timezone'], lists: {} },
};

function keepText(node: unknown): void {
  if (!isScalar(node) || node.type !== 'PLAIN' || typeof node.source !== 'string') return;
  const v = node.value;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') node.value = node.source;
}

function visit(node: Node | null | undefined, kind: Kind): void {
  if (!isMap(node)) return;
  const shape = SHAPES[kind];
  for (const pair of node.items as Pair<unknown, unknown>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    if (shape.text.includes(key)) keepText(pair.value);
    else if (shape.textLists?.includes(key) && isSeq(pair.value)) pair.value.items.forEach(keepText);
    else if (Object.hasOwn(shape.lists, key) && isSeq(pair.value)) {
      for (const item of pair.value.items) visit(item as Node, shape.lists[key]);
    }
  }
}

/** Rewrites, in place, numeric and boolean scalars of text fields to their source text. */
export function keepScalarText(doc: Document): void {
  visit(doc.contents, 'workflow');
}
