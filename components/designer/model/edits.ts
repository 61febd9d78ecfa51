/**
 * Graph edits → YAML. Every function takes the current YAML text and returns the new text (with
 * the id of the node it made or changed), editing the `yaml` Document in place so that comments and
 * formatting elsewhere survive. Invalid edits throw `DesignerEditError` (`code`: `edit.*`).
 */
export { addAct, addBranch, addRule, addStep, addTrigger, type AddActOptions, type AddBranchOptions, type AddRuleOptions, type AddStepOptions } from './edit-add.ts';
export { moveActTo, moveNode, removeNode } from './edit-structure.ts';
export { duplicateNode, wrapInStep } from './edit-copy.ts';
export { saveTestCase } from './edit-tests.ts';
export { rename, setFields, setWorkflow } from './edit-fields.ts';
export { MODEL_FIELDS } from './model-fields.ts';
export { DesignerEditError, type EditErrorCode } from './edit-error.ts';
export type { EditResult } from './edit-document.ts';
export { defaultsFromSchema } from './schema-defaults.ts';
