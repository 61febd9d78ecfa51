/**
 * One line of text per change of a structural diff, as `acts diff` prints them:
 * `+ act notify`, `- step review`, `~ step approve: params, next`, `> act check: moved`,
 * `~ act pay: params, moved` (changed and moved).
 */
import type { NodeChange } from './types.ts';

const SIGNS: Record<NodeChange['status'], string> = { added: '+', removed: '-', changed: '~', moved: '>', unchanged: '=' };

/** How a line names a node: its kind and YAML id, else its graph node id. */
export function nodeName(change: Pick<NodeChange, 'kind' | 'elementId' | 'key'>): string {
  return `${change.kind} ${change.elementId ?? change.key}`;
}

/** What changed of a node, in words: its changed fields, then `moved`. */
export function changedParts(change: NodeChange): string[] {
  const parts = change.fields.map((f) => f.field);
  if (change.moved) parts.push('moved');
  return parts;
}

export function changeLine(change: NodeChange): string {
  const parts = change.status === 'changed' || change.status === 'moved' ? changedParts(change) : [];
  return `${SIGNS[change.status]} ${nodeName(change)}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}
