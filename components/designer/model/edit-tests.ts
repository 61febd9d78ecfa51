/**
 * Saving a step test case into the model document's top-level `tests:` list (vocab/step-tests.ts):
 * appended as one flow mapping, or replacing the case of the same name. Not a node of the graph:
 * the edit names the node the case tests, so the selection stays on it.
 */
import { isMap, type YAMLMap } from 'yaml';
import { TESTS_FIELD, type StepTestCase } from '../../../vocab/step-tests.ts';
import { ensureList, finishEdit, openForEdit, type EditResult } from './edit-document.ts';
import { textField } from '../../../vocab/model-tree/yaml-values.ts';

/** Adds (or replaces, by name) the case `test`; `nodeId` is the graph node it tests. */
export function saveTestCase(source: string, test: StepTestCase, nodeId: string): EditResult {
  const { doc } = openForEdit(source);
  const list = ensureList(doc, { path: '', map: doc.contents as YAMLMap }, TESTS_FIELD);
  const item = doc.createNode(test, { flow: true });
  const at = list.items.findIndex((existing) => isMap(existing) && textField(existing, 'name') === test.name);
  if (at >= 0) list.items[at] = item;
  else list.items.push(item);
  return { source: finishEdit(doc, null).source, nodeId };
}
