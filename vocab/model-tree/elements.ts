/**
 * The element tree of a YAML document: the workflow, its steps, branches, acts, catch and timeout
 * rules and triggers, each with its YAML mapping, the list that holds it and its document path.
 * Built from the YAML AST (not from plain data), so a document with syntax errors still yields
 * every element that could be read. `toGraph`, the edits and the problem mapping all share it.
 */
import { isMap, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { ELEMENT_LISTS, type ElementKind } from '../graph.ts';
import { textField } from './yaml-values.ts';

export interface Element {
  kind: ElementKind;
  /** Document path, e.g. `steps[1].acts[0]` (`''` for the workflow). */
  path: string;
  /** The element's mapping; absent only for a workflow whose document is empty or not a mapping. */
  map?: YAMLMap;
  parent?: Element;
  /** The parent's list field holding this element (`acts`, `setup`, …; `''` for the workflow). */
  field: string;
  /** Index in that list (YAML index: items that are not mappings still count). */
  index: number;
  /** The `id:` the author wrote (catch and timeout rules have none). */
  elementId?: string;
  /** Pre-order position in the document: parents before children, lists in order. */
  order: number;
  /** Assigned by `assignNodeIds`. */
  nodeId: string;
  children: Element[];
}

/** The list node of `field` in an element's mapping, when it is a list. */
export function listOf(element: Element, field: string): YAMLSeq | undefined {
  const node = element.map?.get(field, true);
  return isSeq(node) ? node : undefined;
}

/** Reads the element tree of `doc`; node ids are not assigned yet (see `node-ids.ts`). */
export function readElements(doc: Document): Element[] {
  const all: Element[] = [];
  const root: Element = {
    kind: 'workflow',
    path: '',
    map: isMap(doc.contents) ? doc.contents : undefined,
    field: '',
    index: 0,
    order: 0,
    nodeId: '',
    children: [],
  };
  root.elementId = textField(root.map, 'id');
  const visit = (element: Element) => {
    all.push(element);
    for (const [field, kind] of ELEMENT_LISTS[element.kind]) {
      listOf(element, field)?.items.forEach((item, index) => {
        if (!isMap(item)) return;
        const base = element.path ? `${element.path}.${field}` : field;
        const child: Element = {
          kind,
          path: `${base}[${index}]`,
          map: item,
          parent: element,
          field,
          index,
          elementId: kind === 'catch' || kind === 'timeout' ? undefined : textField(item, 'id'),
          order: all.length,
          nodeId: '',
          children: [],
        };
        element.children.push(child);
        visit(child);
      });
    }
  };
  visit(root);
  return all;
}

/** Children of `element` held in `field`, in list order. */
export function childrenIn(element: Element, field: string): Element[] {
  return element.children.filter((child) => child.field === field);
}
