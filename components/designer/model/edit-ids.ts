/** Ids for new elements: `<base>_<n>`, unique among every id and act key of the document. */
import type { Element } from '../../../vocab/model-tree/elements.ts';
import { editError } from './edit-error.ts';
import { textField } from '../../../vocab/model-tree/yaml-values.ts';

/** Every `id` and act `key` written in the document. */
export function takenIds(elements: readonly Element[]): Set<string> {
  const taken = new Set<string>();
  for (const element of elements) {
    if (element.elementId) taken.add(element.elementId);
    const key = element.kind === 'act' ? textField(element.map, 'key') : undefined;
    if (key) taken.add(key);
  }
  return taken;
}

/** `step` → `step_1` (or the first free `step_<n>`). */
export function freshId(taken: Set<string>, base: string): string {
  let n = 1;
  while (taken.has(`${base}_${n}`)) n++;
  const id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** The id base of an act of package `uses`: its last name part (`acts.core.irq` → `irq`). */
export function idBaseOf(uses: string): string {
  const last = uses.split('.').pop() ?? '';
  const cleaned = last.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return cleaned || 'act';
}

/** The id the caller asked for (checked to be free) or a fresh one. */
export function chooseId(taken: Set<string>, wanted: string | undefined, base: string): string {
  if (wanted === undefined) return freshId(taken, base);
  const id = wanted.trim();
  if (!id) throw editError('edit.empty_id', 'an id cannot be empty');
  if (taken.has(id)) throw editError('edit.duplicate_id', `'${id}' is already used in this workflow`);
  taken.add(id);
  return id;
}
