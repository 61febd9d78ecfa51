/**
 * Duplicating an element (a step, branch, act, catch or timeout rule or trigger, with everything
 * inside it) right after itself, and wrapping an act of a step's chain in a step of its own. A
 * copy gets fresh ids and act keys (`manager` → `manager_1`) throughout, so the document keeps
 * its ids unique; references (`next`, `needs`) keep naming the originals.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { finishEdit, openForEdit, type EditResult } from './edit-document.ts';
import { editError } from './edit-error.ts';
import { freshId, takenIds } from './edit-ids.ts';
import { placeOf } from './edit-structure.ts';

/** The fields of an element that hold further elements. */
const CHILD_LISTS = ['steps', 'branches', 'acts', 'setup', 'catches', 'timeout'];

/** `manager_2` → `manager`: the copy's id counts on from its original's name. */
const baseOf = (id: string) => id.replace(/_\d+$/, '') || 'copy';

function renewIds(map: YAMLMap, taken: Set<string>): void {
  for (const field of ['id', 'key']) {
    const value = map.get(field, true);
    if (isScalar(value) && typeof value.value === 'string' && value.value) value.value = freshId(taken, baseOf(value.value));
  }
  for (const field of CHILD_LISTS) {
    const list = map.get(field, true);
    if (isSeq(list)) for (const item of list.items) if (isMap(item)) renewIds(item, taken);
  }
}

export function duplicateNode(source: string, nodeId: string): EditResult {
  const session = openForEdit(source);
  const element = session.find(nodeId);
  const { list } = placeOf(element, 'duplicate');
  if (!element.map) throw editError('edit.bad_target', `${nodeId} is not written as a mapping, so it cannot be duplicated`);
  const copy = element.map.clone() as YAMLMap;
  renewIds(copy, takenIds(session.elements));
  list.items.splice(element.index + 1, 0, copy);
  return finishEdit(session.doc, copy);
}

/** Moves an act of a step's chain into a new step of its own, right after its step; the new step is the result. */
export function wrapInStep(source: string, actId: string): EditResult {
  const session = openForEdit(source);
  const act = session.find(actId);
  if (act.kind !== 'act' || act.field !== 'acts' || act.parent?.kind !== 'step') {
    throw editError('edit.bad_target', `only an act of a step's acts can be wrapped in a step of its own, and ${actId} is not one`);
  }
  const { list: steps } = placeOf(act.parent, 'move');
  const { list: acts } = placeOf(act, 'move');
  const [item] = acts.items.splice(act.index, 1);
  const step = session.doc.createNode({ id: freshId(takenIds(session.elements), 'step'), acts: [item] });
  steps.items.splice(act.parent.index + 1, 0, step);
  return finishEdit(session.doc, step);
}
