/**
 * Setting fields of a node (params, inputs, outputs, if, next, timeout, …), renaming, and the
 * workflow's own fields. Changing an `id` keeps the document consistent: the new id must be free,
 * and the `next` of steps and the `needs` of sibling branches that named the old id follow it.
 */
import { isScalar, isSeq } from 'yaml';
import { childrenIn, type Element } from '../../../vocab/model-tree/elements.ts';
import { finishEdit, openForEdit, setField, type EditResult, type EditSession } from './edit-document.ts';
import { editError } from './edit-error.ts';
import { takenIds } from './edit-ids.ts';
import { MODEL_FIELDS } from './model-fields.ts';
import { textField } from '../../../vocab/model-tree/yaml-values.ts';

/** Rewrites the `next` and `needs` references to a step or branch id. */
function followRename(session: EditSession, element: Element, from: string, to: string): void {
  if (element.kind === 'step') {
    for (const step of session.elements) {
      if (step.kind === 'step' && textField(step.map, 'next') === from) setField(session.doc, step, 'next', to);
    }
  }
  if (element.kind === 'branch' && element.parent) {
    for (const sibling of childrenIn(element.parent, 'branches')) {
      const needs = sibling.map?.get('needs', true);
      const items = isSeq(needs) ? needs.items : [needs];
      for (const item of items) if (isScalar(item) && String(item.value) === from) item.value = to;
    }
  }
}

function setId(session: EditSession, element: Element, value: unknown): void {
  const id = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  if (!id) throw editError('edit.empty_id', `the id of ${element.nodeId} cannot be empty`);
  if (id === element.elementId) return;
  if (takenIds(session.elements).has(id)) throw editError('edit.duplicate_id', `'${id}' is already used in this workflow`);
  setField(session.doc, element, 'id', id);
  if (element.elementId) followRename(session, element, element.elementId, id);
}

function applyFields(session: EditSession, element: Element, fields: Readonly<Record<string, unknown>>): void {
  const known = MODEL_FIELDS[element.kind];
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) {
      throw editError('edit.unknown_field', `a ${element.kind} has no field '${key}' (fields: ${known.join(', ')})`);
    }
  }
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'id') setId(session, element, value);
    else setField(session.doc, element, key, value);
  }
}

/**
 * Sets fields of a node; a value `undefined` removes the field. Values replace the whole field
 * (`params: {…}` replaces the params); a scalar replacing a scalar keeps its comment and quoting.
 */
export function setFields(source: string, nodeId: string, fields: Readonly<Record<string, unknown>>): EditResult {
  const session = openForEdit(source);
  const element = session.find(nodeId);
  applyFields(session, element, fields);
  return finishEdit(session.doc, element.map);
}

/** Changes the id and/or name of a node (references to the old id follow); `name: ''` removes the name. */
export function rename(source: string, nodeId: string, names: { id?: string; name?: string }): EditResult {
  const fields: Record<string, unknown> = {};
  if (names.id !== undefined) fields.id = names.id;
  if (names.name !== undefined) fields.name = names.name || undefined;
  return setFields(source, nodeId, fields);
}

/** Sets the workflow's own fields (`id`, `name`, `inputs`, `outputs`, …). */
export function setWorkflow(source: string, fields: Readonly<Record<string, unknown>>): EditResult {
  return setFields(source, 'workflow', fields);
}
