/**
 * Removing and moving elements. Each element moves with its own comments (the `yaml` library keeps
 * a comment line above an item on that item); every other line of the document stays as it was.
 */
import type { YAMLSeq } from 'yaml';
import { listOf, type Element } from '../../../vocab/model-tree/elements.ts';
import { ensureList, finishEdit, insertAt, openForEdit, type EditResult } from './edit-document.ts';
import { editError } from './edit-error.ts';

/** The list holding `element` and its parent; the workflow itself is in no list. */
export function placeOf(element: Element, action: 'remove' | 'move' | 'duplicate'): { parent: Element; list: YAMLSeq } {
  const parent = element.parent;
  const list = parent && listOf(parent, element.field);
  if (!parent || !list) throw editError(action === 'remove' ? 'edit.cannot_remove' : 'edit.cannot_move', `cannot ${action} the workflow itself`);
  return { parent, list };
}

/** Removes a step, branch, act, catch or timeout rule or trigger (with everything inside it). */
export function removeNode(source: string, nodeId: string): EditResult {
  const session = openForEdit(source);
  const element = session.find(nodeId);
  const { parent, list } = placeOf(element, 'remove');
  list.items.splice(element.index, 1);
  return finishEdit(session.doc, parent.map);
}

/** Moves an element `by` places within its list (-1: up, 1: down). */
export function moveNode(source: string, nodeId: string, by: number): EditResult {
  const session = openForEdit(source);
  const element = session.find(nodeId);
  const { parent, list } = placeOf(element, 'move');
  const to = element.index + by;
  if (!Number.isInteger(by) || to < 0 || to >= list.items.length) {
    throw editError('edit.cannot_move', `${nodeId} is item ${element.index + 1} of ${list.items.length}; it cannot move by ${by}`);
  }
  const [item] = list.items.splice(element.index, 1);
  list.items.splice(to, 0, item);
  return finishEdit(session.doc, item);
}

function isInside(element: Element, ancestor: Element): boolean {
  for (let e: Element | undefined = element; e; e = e.parent) if (e === ancestor) return true;
  return false;
}

/** Moves an act of a step's chain into another step's chain, at `index` (default: the end). */
export function moveActTo(source: string, actId: string, stepId: string, index?: number): EditResult {
  const session = openForEdit(source);
  const act = session.find(actId);
  const step = session.find(stepId);
  if (act.kind !== 'act' || act.field !== 'acts') throw editError('edit.bad_target', `${actId} is not an act of a step's chain`);
  if (step.kind !== 'step') throw editError('edit.bad_target', `acts move into a step, and ${stepId} is a ${step.kind}`);
  if (isInside(step, act)) throw editError('edit.bad_target', `${stepId} is inside ${actId}`);
  const { list } = placeOf(act, 'move');
  const target = ensureList(session.doc, step, 'acts');
  const [item] = list.items.splice(act.index, 1);
  insertAt(target, item, index === undefined ? undefined : Math.min(index, target.items.length));
  return finishEdit(session.doc, item);
}
