/**
 * `diffModels`: the structural diff of two model texts — which steps, branches, acts, rules and
 * triggers were added, removed, changed (which fields) or moved. Both texts are read with the
 * designer's tolerant reader (vocab/model-tree), so nodes are matched by their graph node ids:
 * a node with a YAML id by that id wherever it sits, any other node by its place under its nearest
 * ancestor with an id (the engine generates ids for those from a hash of the whole text, so their
 * engine ids differ between any two texts; both are reported when the caller passes them).
 * Pure: the studio, the API (`models.structuralDiff`) and the CLI (`acts diff`) share it.
 */
import { ELEMENT_LISTS, type ElementKind } from '../graph.ts';
import { childrenIn, type Element } from '../model-tree/elements.ts';
import { openSource } from '../model-tree/source.ts';
import { nodeFacts, type NodeFacts } from './node-facts.ts';
import { reorderedKeys } from './sibling-order.ts';
import type { FieldChange, ModelDiff, NodeChange, NodeIdTable } from './types.ts';

export interface DiffOptions {
  /** The engine's node ids of each version by YAML path; without them only the ids written in the YAML are reported. */
  nids?: { before?: NodeIdTable; after?: NodeIdTable };
}

interface Side {
  facts: Map<string, NodeFacts>;
  order: Element[];
  nid: (element: Element) => string | undefined;
}

const ENGINE_NODES = new Set<ElementKind>(['workflow', 'step', 'branch', 'act']);

function readSide(source: string, table: NodeIdTable | undefined): Side & { problems: ReturnType<typeof openSource>['errors'] } {
  const { elements, errors } = openSource(source);
  const byPath = new Map(table?.map((n) => [n.path, n.nid]));
  const nid = (element: Element) => (ENGINE_NODES.has(element.kind) ? (byPath.get(element.path) ?? element.elementId) : undefined);
  return { facts: new Map(elements.map((e) => [e.nodeId, nodeFacts(e)])), order: elements, nid, problems: errors };
}

function fieldChanges(a: NodeFacts, b: NodeFacts): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of new Set([...a.fields.keys(), ...b.fields.keys()])) {
    const x = a.fields.get(field);
    const y = b.fields.get(field);
    if (x?.text === y?.text) continue;
    const change: FieldChange = { field };
    if (x) change.before = x.value;
    if (y) change.after = y.value;
    changes.push(change);
  }
  return changes;
}

/** The children `owner` shares with the other version in each list, when their order differs; adds the moved ones to `moved`. */
function orderChange(owner: string, a: Side, b: Side, moved: Set<string>): FieldChange | undefined {
  const ea = a.facts.get(owner)!.element;
  const eb = b.facts.get(owner)!.element;
  const shared = (element: Element, field: string, other: Side) =>
    childrenIn(element, field)
      .map((child) => child.nodeId)
      .filter((key) => {
        const there = other.facts.get(key)?.placement;
        return there?.parent === owner && there.field === field;
      });
  const before: Record<string, string[]> = {};
  const after: Record<string, string[]> = {};
  for (const [field] of ELEMENT_LISTS[eb.kind]) {
    const x = shared(ea, field, b);
    const y = shared(eb, field, a);
    if (x.join('\n') === y.join('\n')) continue;
    before[field] = x;
    after[field] = y;
    for (const key of reorderedKeys(x, y)) moved.add(key);
  }
  return Object.keys(after).length ? { field: 'order', before, after } : undefined;
}

function entry(key: string, facts: NodeFacts, status: NodeChange['status']): NodeChange {
  const { element } = facts;
  const change: NodeChange = { key, status, kind: element.kind, label: facts.label, fields: [] };
  if (element.elementId !== undefined) change.elementId = element.elementId;
  return change;
}

function compared(key: string, a: Side, b: Side, moved: Set<string>): NodeChange {
  const fa = a.facts.get(key)!;
  const fb = b.facts.get(key)!;
  const fields = fieldChanges(fa, fb);
  const order = fa.element.kind === fb.element.kind ? orderChange(key, a, b, moved) : undefined;
  if (order) fields.push(order);
  const change = entry(key, fb, 'unchanged');
  change.fields = fields;
  change.path = fb.element.path;
  change.beforePath = fa.element.path;
  const [from, to] = [fa.placement, fb.placement];
  if (from.parent !== to.parent || from.field !== to.field || moved.has(key)) change.moved = { from, to };
  change.status = fields.length ? 'changed' : change.moved ? 'moved' : 'unchanged';
  return change;
}

function withIds(change: NodeChange, a: Side, b: Side): NodeChange {
  const before = a.facts.get(change.key);
  const after = b.facts.get(change.key);
  const nid = after ? b.nid(after.element) : undefined;
  const beforeNid = before ? a.nid(before.element) : undefined;
  if (nid !== undefined) change.nid = nid;
  if (beforeNid !== undefined && nid === undefined) change.nid = beforeNid;
  else if (beforeNid !== undefined && beforeNid !== nid) change.beforeNid = beforeNid;
  return change;
}

export function diffModels(before: string, after: string, options: DiffOptions = {}): ModelDiff {
  const a = readSide(before, options.nids?.before);
  const b = readSide(after, options.nids?.after);
  // parents come before their children: comparing a parent's lists marks the children it reordered
  const moved = new Set<string>();
  const found = new Map<string, NodeChange>();
  for (const element of b.order) {
    const key = element.nodeId;
    const change = a.facts.has(key) ? compared(key, a, b, moved) : { ...entry(key, b.facts.get(key)!, 'added'), path: element.path };
    found.set(key, change);
  }
  const changes = inDocumentOrder(found, a);
  return {
    same: changes.every((c) => c.status === 'unchanged'),
    changes: changes.map((c) => withIds(c, a, b)),
    problems: [...a.problems.map((p) => ({ ...p, side: 'before' as const })), ...b.problems.map((p) => ({ ...p, side: 'after' as const }))],
  };
}

/** The new version's nodes in order, each removed node right after the node that preceded it in the old version. */
function inDocumentOrder(found: Map<string, NodeChange>, a: Side): NodeChange[] {
  const removedAfter = new Map<string | undefined, NodeChange[]>();
  let last: string | undefined;
  for (const element of a.order) {
    const key = element.nodeId;
    if (found.has(key)) {
      last = key;
      continue;
    }
    const change = { ...entry(key, a.facts.get(key)!, 'removed'), beforePath: element.path };
    removedAfter.set(last, [...(removedAfter.get(last) ?? []), change]);
  }
  const out: NodeChange[] = [...(removedAfter.get(undefined) ?? [])];
  for (const [key, change] of found) out.push(change, ...(removedAfter.get(key) ?? []));
  return out;
}
