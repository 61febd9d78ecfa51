/** One graph node per element: its kind, label, badges and the fields the canvas shows. */
import type { Element } from './elements.ts';
import { END_NODE_ID, type GraphNode, type NodeKind, type SourceRange } from '../graph.ts';
import { flagField, nestedText, textField, textListField } from './yaml-values.ts';

export const SUBFLOW_PACKAGE = 'acts.core.subflow';

/** A setup act with `on:` is a hook; every other act is an act; the workflow is the start node. */
export function nodeKindOf(element: Element): NodeKind {
  if (element.kind === 'workflow') return 'start';
  if (element.kind === 'act' && element.field === 'setup' && textField(element.map, 'on') !== undefined) return 'hook';
  return element.kind;
}

function defaultLabel(element: Element, kind: NodeKind, on: string | undefined): string {
  if (kind === 'catch') return on === undefined ? 'catch any error' : `catch ${on || "''"}`;
  if (kind === 'timeout') return `timeout ${on ?? '?'}`;
  if (kind === 'start') return 'Workflow';
  return textField(element.map, 'key') ?? textField(element.map, 'uses') ?? `${kind} ${element.index + 1}`;
}

const nonEmpty = (list: string[]) => (list.length ? list : undefined);

function badgesOf(node: GraphNode): string[] {
  const badges: string[] = [];
  if (node.condition !== undefined) badges.push(`if ${node.condition}`);
  if (node.isElse) badges.push('else');
  if (node.needs?.length) badges.push(`needs ${node.needs.join(', ')}`);
  if (node.next !== undefined) badges.push(`next → ${node.next}`);
  if (node.kind === 'hook' && node.on !== undefined) badges.push(`on ${node.on}`);
  if (node.subflow !== undefined) badges.push(`subflow → ${node.subflow}`);
  return badges;
}

export function graphNodeOf(element: Element, range: SourceRange | undefined): GraphNode {
  const { map } = element;
  const kind = nodeKindOf(element);
  const on = kind === 'catch' || kind === 'timeout' || kind === 'hook' ? textField(map, 'on') : undefined;
  const uses = textField(map, 'uses');
  const node: GraphNode = {
    id: element.nodeId,
    kind,
    label: textField(map, 'name') ?? element.elementId ?? defaultLabel(element, kind, on),
    path: element.path,
    parent: element.parent?.nodeId,
    index: element.index,
    elementId: element.elementId,
    range,
    badges: [],
    uses,
    key: element.kind === 'act' ? textField(map, 'key') : undefined,
    condition: textField(map, 'if'),
    isElse: element.kind === 'branch' && flagField(map, 'else') ? true : undefined,
    needs: element.kind === 'branch' ? nonEmpty(textListField(map, 'needs')) : undefined,
    next: element.kind === 'step' ? textField(map, 'next') : undefined,
    on,
    subflow: uses === SUBFLOW_PACKAGE ? nestedText(map, 'params', 'to') : undefined,
  };
  for (const key of Object.keys(node) as (keyof GraphNode)[]) if (node[key] === undefined) delete node[key];
  node.badges = badgesOf(node);
  return node;
}

/** The end node: where every top-level chain finishes. */
export function endNode(): GraphNode {
  return { id: END_NODE_ID, kind: 'end', label: 'End', path: '', index: 0, badges: [] };
}
