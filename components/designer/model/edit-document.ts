/**
 * The frame of every graph edit: a copy of the text's `yaml` Document (source.ts parses each text
 * once; text with syntax errors is refused), find elements by node id, change the Document in place (so comments and formatting
 * elsewhere stay), and print it again.
 */
import { isMap, isScalar, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Element } from '../../../vocab/model-tree/elements.ts';
import { editError } from './edit-error.ts';
import { insertionIndex, MODEL_FIELDS } from './model-fields.ts';
import { elementsOf, openSource } from '../../../vocab/model-tree/source.ts';
import { keyText } from '../../../vocab/model-tree/yaml-values.ts';

/** What every edit returns: the new text and the node the edit made or changed. */
export interface EditResult {
  source: string;
  /** The node id (in the new text) of the added, moved or changed node; the owner after a remove. */
  nodeId: string;
}

export interface EditSession {
  doc: Document;
  elements: Element[];
  /** The element of a node id; throws `edit.unknown_node`. */
  find(nodeId: string): Element;
}

/** Printing options that keep the author's lines: no folding of long lines. */
const PRINT = { lineWidth: 0 } as const;

/**
 * A comment right after the last line (no blank line between) stays there: `yaml` would print a
 * document-level comment after a blank line, so it becomes the root mapping's trailing comment.
 */
function keepTrailingComment(doc: Document, source: string): void {
  const end = doc.contents?.range?.[1];
  if (!doc.comment || !isMap(doc.contents) || doc.contents.comment || end === undefined) return;
  if (!source.slice(end).startsWith('#')) return;
  doc.contents.comment = doc.comment;
  doc.comment = null;
}

export function openForEdit(source: string): EditSession {
  // a copy of the parse the designer already made of this text (graph, property panel): a clone costs a fraction of a parse
  const opened = openSource(source).doc;
  if (opened.errors.length) throw editError('edit.invalid_yaml', `fix the YAML first: ${opened.errors[0].message}`);
  const doc: Document = opened.clone();
  keepTrailingComment(doc, source);
  const empty = doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null);
  if (empty) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw editError('edit.not_a_workflow', 'the document must be a mapping of workflow fields');
  const elements = elementsOf(doc);
  const find = (nodeId: string) => {
    const element = elements.find((e) => e.nodeId === nodeId);
    if (!element) throw editError('edit.unknown_node', `no node '${nodeId}' in this workflow`);
    return element;
  };
  return { doc, elements, find };
}

/** Prints the document and names the node of `changed` (an element's mapping) in the new text. */
export function finishEdit(doc: Document, changed: unknown): EditResult {
  const element = elementsOf(doc).find((e) => e.map === changed);
  return { source: doc.toString(PRINT), nodeId: element?.nodeId ?? 'workflow' };
}

/** What owns a list: an element, or a mapping just inserted (a step made for a new act). */
export interface ListOwner {
  path: string;
  map?: YAMLMap;
}

/** The path of item `index` of list `field` under `owner`. */
export function childPath(owner: ListOwner, field: string, index: number): string {
  return `${owner.path ? `${owner.path}.` : ''}${field}[${index}]`;
}

/** The element's mapping (every element but an empty workflow has one; the session made it a map). */
export function mapOf(element: ListOwner): YAMLMap {
  if (!element.map) throw editError('edit.not_a_workflow', 'the document must be a mapping of workflow fields');
  return element.map;
}

/** The list in `field` of `owner`, created when missing or empty (`acts:` with nothing after it). */
export function ensureList(doc: Document, owner: ListOwner, field: string): YAMLSeq {
  const map = mapOf(owner);
  const node = map.get(field, true);
  if (isSeq(node)) return node;
  if (node !== undefined && !(isScalar(node) && node.value === null)) {
    throw editError('edit.not_a_list', `\`${field}\` of ${owner.path || 'the workflow'} is not a list`);
  }
  const list = doc.createNode([]) as YAMLSeq;
  map.set(field, list);
  return list;
}

/** Inserts `item` at `index` (default: the end); returns the index used. */
export function insertAt(list: YAMLSeq, item: unknown, index?: number): number {
  const at = index ?? list.items.length;
  if (!Number.isInteger(at) || at < 0 || at > list.items.length) {
    throw editError('edit.bad_index', `index ${index} is outside 0…${list.items.length}`);
  }
  list.items.splice(at, 0, item);
  return at;
}

/**
 * Sets a field of an element; `undefined` removes it. A scalar replacing a scalar keeps its node
 * (comment and quoting); a new field goes where `MODEL_FIELDS` puts it (`name` after `id`).
 */
export function setField(doc: Document, element: Element, key: string, value: unknown): void {
  const map = mapOf(element);
  if (value === undefined) {
    map.delete(key);
    return;
  }
  const node = map.get(key, true);
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    node.value = value;
  } else if (map.has(key)) {
    map.set(key, doc.createNode(value));
  } else {
    const at = insertionIndex(map.items.map((pair) => keyText(pair.key)), key, MODEL_FIELDS[element.kind]);
    map.items.splice(at, 0, doc.createPair(key, value));
  }
}
