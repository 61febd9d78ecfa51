/**
 * What the structural diff compares of one element of a model document (vocab/model-tree): its
 * owner, list and place, and its own fields as plain values. The lists of child elements are left
 * out (each child is compared as an element of its own, and their order as `order`), and so is the
 * `id` of a step, branch, act or trigger (the graph node id stands for it). Rule lists
 * (`catches`, `timeout`) are compared by their heads (each rule without its `steps`), a `setup`
 * list by the graph node ids of its acts.
 */
import { isMap, isNode, isSeq } from 'yaml';
import { ELEMENT_LISTS } from '../graph.ts';
import { childrenIn, type Element } from '../model-tree/elements.ts';
import { keyText, textField } from '../model-tree/yaml-values.ts';
import type { Placement } from './types.ts';

export interface NodeFacts {
  element: Element;
  placement: Placement;
  label: string;
  /** Compared fields by name: the plain value and its canonical text. */
  fields: Map<string, { value: unknown; text: string }>;
}

/** JSON with the keys of every mapping sorted: two mappings written in another key order read the same. */
export function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalText((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const plain = (node: unknown): unknown => (isNode(node) ? node.toJSON() : node);

/** The heads of a rule list: each rule's fields without its `steps`. */
function ruleHeads(list: unknown): unknown {
  if (!isSeq(list)) return plain(list);
  return list.items.map((item) => {
    if (!isMap(item)) return plain(item);
    const head = item.toJSON() as Record<string, unknown>;
    delete head.steps;
    return head;
  });
}

function fieldValue(element: Element, field: string, value: unknown): unknown {
  if (field === 'catches' || field === 'timeout') return ruleHeads(value);
  if (field === 'setup') return childrenIn(element, 'setup').map((child) => child.nodeId);
  return plain(value);
}

export function nodeFacts(element: Element): NodeFacts {
  const lists = new Set(ELEMENT_LISTS[element.kind].map(([field]) => field));
  const fields = new Map<string, { value: unknown; text: string }>();
  for (const pair of element.map?.items ?? []) {
    const field = keyText(pair.key);
    if (field === 'id' && element.kind !== 'workflow') continue;
    if (lists.has(field) && field !== 'catches' && field !== 'timeout' && field !== 'setup') continue;
    const value = fieldValue(element, field, pair.value);
    fields.set(field, { value, text: canonicalText(value) });
  }
  return {
    element,
    placement: { parent: element.parent?.nodeId, field: element.field, index: element.index },
    label: textField(element.map, 'name') ?? element.elementId ?? textField(element.map, 'key') ?? element.nodeId,
    fields,
  };
}
