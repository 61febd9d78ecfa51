/** The structural diff of two versions of a model (see `diff-models.ts`), shared by the studio, the API and the CLI. */
export { diffModels, type DiffOptions } from './diff-models.ts';
export { changedParts, changeLine, nodeName } from './change-line.ts';
export type { ChangeStatus, FieldChange, ModelDiff, NodeChange, NodeIdTable, Placement } from './types.ts';
